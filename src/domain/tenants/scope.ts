// A tenant scope: the queries of one tenant's data, bound to that tenant (in the spirit of Logto's
// createUserQueries). Tenant-scoped code (people, tenant settings, billing, audit, SSO settings)
// receives a scope instead of a tenant id, and writes its queries through it: the tenant's
// condition is added by the scope, never typed again by hand (ESLint refuses `eq(x.tenantId, …)`
// in those folders), so a query on a tenant table is written without repeating the tenant and
// cannot be written without it. Code that works across tenants (sign-in before the tenant is
// known, the person's account, the operator) does not take a scope, which shows that it is not
// bound. Raw SQL statements (batch guards, the import's INSERT … SELECT) use `scope.id`.
import { and, eq, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable, SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
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
