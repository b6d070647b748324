// isUniqueViolation (src/domain/errors.ts) against the errors libSQL really raises: the races
// that a check-then-write cannot close (department names, memberships, tenant subdomains) rely on it.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { departments, tenants, tenantUsers } from '../../src/db/schema';
import { isUniqueViolation } from '../../src/domain/errors';
import { createHarness, type Harness } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

async function errorOf(write: Promise<unknown>): Promise<unknown> {
  try {
    await write;
  } catch (e) {
    return e;
  }
  throw new Error('the write succeeded');
}

it('recognises a unique-index violation and names its table', async () => {
  const [dept] = await h.deps.db.select().from(departments).limit(1);
  const dup = await errorOf(h.deps.db.insert(departments).values({ tenantId: dept!.tenantId, name: dept!.name }));
  expect(isUniqueViolation(dup, 'departments')).toBe(true);
  expect(isUniqueViolation(dup, 'tenant_users')).toBe(false);

  const [member] = await h.deps.db.select().from(tenantUsers).limit(1);
  const again = await errorOf(h.deps.db.insert(tenantUsers).values({ tenantId: member!.tenantId, userId: member!.userId }));
  expect(isUniqueViolation(again, 'tenant_users')).toBe(true);

  const [tenant] = await h.deps.db.select().from(tenants).limit(1);
  const taken = await errorOf(h.deps.db.insert(tenants).values({ name: 'Copy', initialSubdomain: tenant!.initialSubdomain }));
  expect(isUniqueViolation(taken, 'tenants')).toBe(true);

  // Another failure is not mistaken for one: a missing NOT NULL value.
  const other = await errorOf(h.deps.db.insert(departments).values({ tenantId: dept!.tenantId } as never));
  expect(isUniqueViolation(other, 'departments')).toBe(false);
});
