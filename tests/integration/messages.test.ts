// Messages that say what to do (issue 27 part 7): seats over the plan on subscriptions, the email
// carried from login to forgot password (with and without JavaScript), and the backup codes left
// after a backup-code sign-in.
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupCodes, tenantApps } from '../../src/db/schema';
import { backupCodeHash } from '../../src/domain/twofa/codes';
import { createHarness, type Harness, type TestClient } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';

async function admin(): Promise<TestClient> {
  const b = h.client(ACME);
  expect((await b.login('admin@acme.test')).body.message).toBe('success');
  return b;
}

describe('subscriptions over the plan', () => {
  it('warns when active members exceed a plan’s seats, naming the feature and the figures, ', async () => {
    const b = await admin();
    // Made over for certain: 3 seats of the card app, more members hold it.
    await h.deps.db.update(tenantApps).set({ seats: 3 }).where(and(eq(tenantApps.tenantId, 1), eq(tenantApps.app, 'meishi')));
    const over = (await b.get('/accounts/api/admin/contract-details')).body;
    expect(over.meishi_active_accounts).toBeGreaterThan(3);
    // (The admin's own language, Japanese, decides the page's.)
    const page = await b.get('/accounts/admin/subscriptions');
    expect(page.text).toContain('data-testid="over-limit"');
    expect(page.text).toContain(`有効なメンバー ${over.meishi_active_accounts} 人が契約数 3 人を ${over.meishi_active_accounts - 3} 人超えています`);
    // Within the plan: no warning.
    await h.deps.db.update(tenantApps).set({ seats: 1000 }).where(eq(tenantApps.tenantId, 1));
    expect((await b.get('/accounts/admin/subscriptions')).text).not.toContain('data-testid="over-limit"');
  });
});

describe('forgot password keeps the email typed at login', () => {
  it('without JavaScript: the password step links to forgot with the address, and forgot shows it typed', async () => {
    const b = h.client(ACME);
    const step = await b.request('POST', '/accounts/login', {
      body: new URLSearchParams({ step: 'email', email: 'user@acme.test' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: b.origin },
    });
    expect(step.text).toContain('href="/accounts/forgot?email=user%40acme.test"');
    const forgot = await b.get('/accounts/forgot?email=user%40acme.test');
    expect(forgot.text).toMatch(/<input[^>]*value="user@acme.test"/);
    // Not an address: not carried.
    expect((await b.get('/accounts/forgot?email=%3Cscript%3E')).text).not.toMatch(/<input[^>]*value="&lt;script/);
  });
});

describe('a backup-code sign-in', () => {
  it('answers how many backup codes are left, down to none', async () => {
    for (const c of ['1234567890', '0987654321']) await h.deps.db.insert(backupCodes).values({ userId: 4, codeHash: backupCodeHash(h.deps.config.DATA_ENCRYPTION_KEY, 4, c), createdAt: h.clock.now() });
    const first = h.client(ACME);
    expect((await first.login('totp@acme.test')).body.message).toBe('enter-otp');
    const r = await first.post('/accounts/api/backup-code', { backupCode: '1234567890' });
    expect(r.body).toMatchObject({ message: 'success', backup_codes_left: 1 });
    const second = h.client(ACME);
    await second.login('totp@acme.test');
    expect((await second.post('/accounts/api/backup-code', { backupCode: '0987654321' })).body).toMatchObject({ message: 'success', backup_codes_left: 0 });
  });
});
