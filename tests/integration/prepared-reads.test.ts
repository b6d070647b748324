// Prepared reads (src/db/client.ts `prepared`, src/domain/tenants/scope.ts `scopedRead`): built
// once, sent with new values, in a batch beside ordinary selects, and bound to the calling scope.
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distinctColumns, prepared, preparedShapes, readTogether, type Placeholders } from '../../src/db/client';
import { departments, tenantUsers, users } from '../../src/db/schema';
import { scopedRead, scopeOf } from '../../src/domain/tenants/scope';
import { createHarness, type Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const userByEmail = prepared((db, p: Placeholders<{ email: string }>) => db.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, p.email)));

describe('prepared reads', () => {
  it('answer each call with its own values, as the same select built each time does', async () => {
    const db = h.deps.db;
    const admin = (await userByEmail(db, { email: 'admin@acme.test' }));
    const user = (await userByEmail(db, { email: 'user@acme.test' }));
    expect(admin).toEqual(await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, 'admin@acme.test')));
    expect(user[0]?.email).toBe('user@acme.test');
    expect(user[0]?.id).not.toBe(admin[0]?.id);
    expect(await userByEmail(db, { email: 'nobody@nowhere.test' })).toEqual([]);
  });

  it('go in one batch beside ordinary selects, in order', async () => {
    const db = h.deps.db;
    const r = await readTogether(db, {
      a: userByEmail(db, { email: 'admin@acme.test' }),
      plain: db.select({ n: users.id }).from(users).where(eq(users.email, 'user@acme.test')),
      b: userByEmail(db, { email: 'user@acme.test' }),
    });
    expect(r.a[0]?.email).toBe('admin@acme.test');
    expect(r.b[0]?.email).toBe('user@acme.test');
    expect(r.plain[0]?.n).toBe(r.b[0]?.id);
  });

  it('refuse to be sent without a value for a placeholder', async () => {
    await expect(Promise.resolve().then(() => userByEmail(h.deps.db, {} as never))).rejects.toThrow(/placeholder/i);
  });

  it('keep one SQL per shape and decode joined columns as the plain select does', async () => {
    const db = h.deps.db;
    const byShape = preparedShapes(
      (d, shape: 'asc' | 'desc', p: Placeholders<{ tenant: number }>) =>
        d
          .select({ user: distinctColumns(users, 'u'), dept: distinctColumns(departments, 'd'), member: tenantUsers.id })
          .from(tenantUsers)
          .innerJoin(users, eq(users.id, tenantUsers.userId))
          .leftJoin(departments, eq(departments.id, tenantUsers.departmentId))
          .where(eq(tenantUsers.tenantId, p.tenant))
          .orderBy(shape === 'asc' ? asc(tenantUsers.id) : tenantUsers.id),
    );
    const up = await byShape(db, 'asc', { tenant: 1 });
    const plain = await db
      .select({ user: distinctColumns(users, 'u'), dept: distinctColumns(departments, 'd'), member: tenantUsers.id })
      .from(tenantUsers)
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .leftJoin(departments, eq(departments.id, tenantUsers.departmentId))
      .where(eq(tenantUsers.tenantId, 1))
      .orderBy(asc(tenantUsers.id));
    expect(up).toEqual(plain);
    expect(up.some((r) => typeof r.dept.name === 'string' && r.dept.id !== r.user.id)).toBe(true);
    const globex = await byShape(db, 'asc', { tenant: 2 });
    expect(globex.length).toBeGreaterThan(0);
    expect(globex.map((r) => r.member)).not.toEqual(up.map((r) => r.member));
  });
});

describe("prepared reads' rows, decoded by a plan made once (db/row-mapper.ts)", () => {
  // Whole tables under names (drizzle's null rule for a left join), nested objects, booleans,
  // SQL decoded with mapWith, and a plain column: each as drizzle's own mapper decodes it.
  const shape = (d: typeof h.deps.db, tenant: number | ReturnType<typeof sql.placeholder>) =>
    d
      .select({
        member: { id: tenantUsers.id, admin: tenantUsers.isAdmin, sso: tenantUsers.isSsoEnabled },
        user: users,
        dept: departments,
        double: sql`${tenantUsers.id} * 2`.mapWith(Number),
        label: sql<string>`'#' || ${users.id}`,
      })
      .from(tenantUsers)
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .leftJoin(departments, eq(departments.id, tenantUsers.departmentId))
      .where(eq(tenantUsers.tenantId, tenant as number))
      .orderBy(asc(tenantUsers.id));
  const planned = prepared((d, p: Placeholders<{ tenant: number }>) => shape(d, p.tenant));

  it('answers what drizzle answers for the same select, a left join without a row included', async () => {
    const db = h.deps.db;
    const [first] = await db.select({ id: tenantUsers.id }).from(tenantUsers).where(eq(tenantUsers.tenantId, 1)).orderBy(asc(tenantUsers.id)).limit(1);
    await db.update(tenantUsers).set({ departmentId: null }).where(eq(tenantUsers.id, first!.id));
    const ours = await planned(db, { tenant: 1 });
    const theirs = await shape(db, 1);
    expect(ours).toEqual(theirs);
    expect(ours[0]!.dept).toBeNull();
    expect(ours.some((r) => r.dept !== null && typeof r.dept.name === 'string')).toBe(true);
    expect(typeof ours[0]!.member.admin).toBe('boolean');
    expect(ours[0]!.double).toBe(ours[0]!.member.id * 2);
    expect(ours[0]!.user.createdAt).toEqual(theirs[0]!.user.createdAt);
    // In a batch beside a plain select, as a screen reads.
    const together = await readTogether(db, { ours: planned(db, { tenant: 1 }), theirs: shape(db, 1) });
    expect(together.ours).toEqual(together.theirs);
  });
});

describe('scoped prepared reads', () => {
  const memberIds = scopedRead((s) => s.db.select({ id: tenantUsers.id, tenantId: tenantUsers.tenantId }).from(tenantUsers).where(s.own(tenantUsers)));

  it("answer only the calling scope's rows, whichever scope made the SQL", async () => {
    const acme = await scopeOf(h.deps.db, 1);
    const globex = await scopeOf(h.deps.db, 2);
    const fromAcme = await memberIds(acme, {});
    const fromGlobex = await memberIds(globex, {});
    expect(fromAcme.length).toBeGreaterThan(0);
    expect(fromGlobex.length).toBeGreaterThan(0);
    expect(new Set(fromAcme.map((r) => r.tenantId))).toEqual(new Set([1]));
    expect(new Set(fromGlobex.map((r) => r.tenantId))).toEqual(new Set([2]));
  });

  it('cannot be given another tenant by a value of the same name', async () => {
    const acme = await scopeOf(h.deps.db, 1);
    const rows = await memberIds(acme, { scopeTenant: 2 } as never);
    expect(new Set(rows.map((r) => r.tenantId))).toEqual(new Set([1]));
  });
});
