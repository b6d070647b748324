// The one-statement request check reads ~80 values by position (issue 22): its column lists come
// from the drizzle table definitions, and this test fills every column the check maps with a value
// of its own (no two neighbours alike, no nulls) so that any shift, a missing column or a wrong
// conversion shows as a field that differs from what drizzle's own selects answer.
import { and, eq, getTableColumns, type Table } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { sessions, tenants, tenantUsers, users } from '../../src/db/schema';
import { sha256Hex } from '../../src/domain/security/tokens';
import { readRequestAuth } from '../../src/domain/sign-in/request-auth';
import { listMemberships } from '../../src/domain/tenants/memberships';
import { createHarness, type Harness } from '../support/harness';

let h: Harness;
afterEach(() => h?.close());

// Columns whose value is someone's key, or limited to a list, keep what the demo data holds.
const KEEP = new Set(['id', 'tenantId', 'userId', 'tokenHash', 'email', 'initialSubdomain', 'subdomain', 'departmentId']);

/** A value for every other column, distinct per column and per table (`seed`). */
function distinctValues(table: Table, seed: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const [key, col] of Object.entries(getTableColumns(table))) {
    n++;
    if (KEEP.has(key) || (col.enumValues?.length ?? 0) > 0) continue;
    if (col.dataType === 'boolean') out[key] = !col.hasDefault || col.default === false ? true : false;
    else if (col.dataType === 'number') out[key] = seed * 1000 + n;
    else if (col.dataType === 'string') out[key] = `${key}-${seed}-${n}`;
    else if (col.dataType === 'json') out[key] = { column: key, seed };
  }
  return out;
}

describe('the request check maps its row by the schema', () => {
  it('every mapped column, filled with a value of its own, reads back as drizzle reads it', async () => {
    h = await createHarness();
    const db = h.deps.db;
    const b = h.client('acme.localhost:8787');
    expect((await b.login('multi@example.test')).body.message).toBe('success');
    const token = b.cookies.get('portal_session')!;
    const user = (await db.select().from(users).where(eq(users.email, 'multi@example.test')).get())!;
    const session = (await db.select().from(sessions).where(eq(sessions.tokenHash, sha256Hex(token))).get())!;
    const far = h.clock.now() + 10 * 86_400_000;
    await db.update(tenants).set(distinctValues(tenants, 1)).where(eq(tenants.id, 1));
    await db.update(tenants).set(distinctValues(tenants, 2)).where(eq(tenants.id, 2));
    await db.update(users).set(distinctValues(users, 3)).where(eq(users.id, user.id));
    await db.update(tenantUsers).set(distinctValues(tenantUsers, 4)).where(eq(tenantUsers.userId, user.id));
    // The session keeps a future expiry; the rest of its columns get values of their own.
    await db.update(sessions).set({ ...distinctValues(sessions, 5), expiresAt: far }).where(eq(sessions.id, session.id));
    // A membership being deleted would leave the list: keep the two memberships counting.
    await db.update(tenantUsers).set({ operationStatus: null, invitationPending: false }).where(eq(tenantUsers.userId, user.id));

    const got = await readRequestAuth(db, 'acme', token, h.clock.now());
    const tenant = (await db.select().from(tenants).where(eq(tenants.id, 1)).get())!;
    expect({ ...got.tenant }).toEqual(tenant);
    expect(got.found).not.toBeNull();
    expect(got.found!.session).toEqual(await db.select().from(sessions).where(eq(sessions.id, session.id)).get());
    expect(got.found!.user).toEqual(await db.select().from(users).where(eq(users.id, user.id)).get());
    expect(got.found!.member).toEqual(await db.select().from(tenantUsers).where(and(eq(tenantUsers.userId, user.id), eq(tenantUsers.tenantId, 1))).get());
    // The memberships (the JSON array and the host's own row) as listMemberships reads them.
    const memberships = await listMemberships(db, user.id);
    expect(memberships).toHaveLength(2);
    expect(got.found!.memberships.map((m) => ({ ...m, tenant: { ...m.tenant } }))).toEqual(memberships);

    // Nothing was left at a default by accident: every column the check maps differs from its
    // neighbour in the row, so a shift by one cannot read as equal.
    for (const row of [tenant, got.found!.session, got.found!.user, got.found!.member!] as Record<string, unknown>[]) {
      const values = Object.values(row).filter((v) => typeof v === 'string' || typeof v === 'number');
      for (let i = 1; i < values.length; i++) expect(values[i], `value ${i}`).not.toEqual(values[i - 1]);
    }
  });
});
