// A tenant scope: the queries of one tenant's data, bound to that tenant (in the spirit of Logto's
// createUserQueries). Tenant-scoped code (people, tenant settings, billing, audit, SSO settings)
// receives a scope instead of a tenant id, and writes its queries through it: the tenant's
// condition is added by the scope, never typed again by hand (ESLint refuses `eq(x.tenantId, …)`
// in those folders), so a query on a tenant table is written without repeating the tenant and
// cannot be written without it. Code that works across tenants (sign-in before the tenant is
// known, the person's account, the operator) does not take a scope, which shows that it is not
// bound. Raw SQL statements (batch guards, the import's INSERT … SELECT) use `scope.id`.
import { and, eq, type Placeholder, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable, SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core';
import { prepared, preparedShapes, type BatchRead, type Db, type Placeholders, type Values } from '../../db/client';
import { tenants, type Tenant } from '../../db/schema';
import { AppError } from '../errors';

/** A table whose rows belong to one tenant each. */
export type TenantTable = SQLiteTable & { tenantId: SQLiteColumn };

export interface TenantScope {
  readonly tenant: Tenant;
  readonly id: number;
  readonly db: Db;
  /** "This tenant's rows of `table`", with `conds`: the WHERE (or a JOIN's ON) of every select. */
  own(table: TenantTable, ...conds: (SQL | undefined)[]): SQL;
  update<T extends TenantTable>(table: T, set: SQLiteUpdateSetSource<T>, ...conds: (SQL | undefined)[]): ReturnType<typeof updateWhere<T>>;
  delete<T extends TenantTable>(table: T, ...conds: (SQL | undefined)[]): ReturnType<typeof deleteWhere<T>>;
  /** UPDATE of the tenant's own row (its settings), with `conds`. */
  updateTenant(set: SQLiteUpdateSetSource<typeof tenants>, ...conds: (SQL | undefined)[]): ReturnType<typeof updateWhere<typeof tenants>>;
  /** INSERT with this tenant's id filled in (the values never name a tenant). */
  insert<T extends TenantTable>(table: T, values: Omit<T['$inferInsert'], 'tenantId'> | Omit<T['$inferInsert'], 'tenantId'>[]): ReturnType<typeof insertValues<T>>;
}

const updateWhere = <T extends SQLiteTable>(db: Db, table: T, set: SQLiteUpdateSetSource<T>, where: SQL) => db.update(table).set(set).where(where);
const deleteWhere = <T extends TenantTable>(db: Db, table: T, where: SQL) => db.delete(table).where(where);
const insertValues = <T extends TenantTable>(db: Db, table: T, rows: T['$inferInsert'][]) => db.insert(table).values(rows);

export function tenantScope(db: Db, tenant: Tenant): TenantScope {
  const id = tenant.id;
  const own = (table: TenantTable, ...conds: (SQL | undefined)[]) => and(eq(table.tenantId, id), ...conds)!;
  return {
    tenant,
    id,
    db,
    own,
    update: (table, set, ...conds) => updateWhere(db, table, set, own(table, ...conds)),
    delete: (table, ...conds) => deleteWhere(db, table, own(table, ...conds)),
    updateTenant: (set, ...conds) => updateWhere(db, tenants, set, and(eq(tenants.id, id), ...conds)!),
    insert: (table, values) =>
      insertValues(
        db,
        table,
        (Array.isArray(values) ? values : [values]).map((v) => ({ ...v, tenantId: id }) as (typeof table)['$inferInsert']),
      ),
  };
}

/**
 * The scope of the tenant that owns a row found by its own key (a background job, a queued
 * mail): the work that follows is bound to that tenant like a request on its host.
 */
export async function scopeOf(db: Db, tenantId: number): Promise<TenantScope> {
  const tenant = await db.select().from(tenants).where(eq(tenants.id, tenantId)).get();
  if (!tenant) throw new AppError('not-found');
  return tenantScope(db, tenant);
}

/** A tenant scope for a prepared read: the tenant is a placeholder that `scopedRead` fills with the scope's. */
export interface PreparedScope {
  readonly db: Db;
  /** The tenant's id as a placeholder, for hand-written SQL (subqueries), as `scope.id` is elsewhere. */
  readonly id: Placeholder<'scopeTenant', number>;
  own(table: TenantTable, ...conds: (SQL | undefined)[]): SQL;
}

/**
 * A tenant's read built once (src/db/client.ts `prepared`), bound to the scope it is called with:
 * `own` names the tenant by a placeholder that only the scope fills, so the read cannot be sent
 * for another tenant or without one.
 */
export function scopedRead<V extends Values, B extends BatchRead>(build: (s: PreparedScope, p: Placeholders<V>) => B): (scope: TenantScope, values: V) => B {
  const send = prepared<V & { scopeTenant: number }, B>((db, p) =>
    build({ db, id: p.scopeTenant, own: (table, ...conds) => and(eq(table.tenantId, p.scopeTenant), ...conds)! }, p),
  );
  return (scope, values) => send(scope.db, { ...values, scopeTenant: scope.id });
}

/** As `scopedRead`, for a read of a few shapes (a sort, an optional filter): made once per shape. */
export function scopedShapes<S extends string, V extends Values, B extends BatchRead>(build: (s: PreparedScope, shape: S, p: Placeholders<V>) => B): (scope: TenantScope, shape: S, values: V) => B {
  const send = preparedShapes<S, V & { scopeTenant: number }, B>((db, shape, p) =>
    build({ db, id: p.scopeTenant, own: (table, ...conds) => and(eq(table.tenantId, p.scopeTenant), ...conds)! }, shape, p),
  );
  return (scope, shape, values) => send(scope.db, shape, { ...values, scopeTenant: scope.id });
}
