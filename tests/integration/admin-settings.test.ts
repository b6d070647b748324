// Tenant settings of spec 02 (admin only): tenant URL, IP restriction, 2FA enforcement, password
// policy, contacts, contract details, get more services, contract application.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contractDetails, serviceRequests, tenants } from '../../src/db/schema';
import { createHarness, type Harness, type TestClient } from '../support/harness';
import { lastMail } from '../support/mail';
import { confirmed } from '../support/lockout';

let h: Harness;
beforeEach(async () => {
  h = await createHarness({ SALES_EMAIL: 'sales@provider.test' });
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const PW = 'Portal-Demo-2026!';

// Public addresses: the documentation ranges (203.0.113.0/24 ...) are reserved, not public.
const ADMIN_IP = '133.242.10.20';
const OFFICE = '133.242.20.0';

async function admin(host = ACME, email = 'admin@acme.test', ip = ADMIN_IP): Promise<TestClient> {
  const b = h.client(host, { ip });
  expect((await b.login(email)).body.message).toBe('success');
  return b;
}

describe('admin-only', () => {
  it('a normal member gets 403 and the signed-out 401 on every settings call', async () => {
    const user = h.client(ACME);
    await user.login('user@acme.test');
    for (const [m, p] of [
      ['GET', '/accounts/api/admin/whitelisted-ips'],
      ['GET', '/accounts/api/admin/password-policy'],
      ['GET', '/accounts/api/admin/tenant-contacts'],
      ['GET', '/accounts/api/admin/contract-details'],
      ['POST', '/accounts/api/admin/twofa'],
      ['PATCH', '/accounts/api/admin/subdomain'],
    ] as const) {
      const opts = m === 'GET' ? {} : { json: {} };
      expect((await user.request(m, p, opts)).status, p).toBe(403);
      expect((await h.client(ACME).request(m, p, opts)).status, p).toBe(401);
    }
  });

  it('a tenant manager is not an admin of the tenant settings', async () => {
    const m = await admin('initech.localhost:8787', 'manager@staff.test');
    expect((await m.get('/accounts/api/admin/password-policy')).status).toBe(403);
  });
});

describe('tenant URL', () => {
  async function verified() {
    const b = await admin();
    expect((await b.post('/accounts/api/password/verify', { password: PW, redirect: 'admin/subdomain' })).body).toEqual({ message: 'verified' });
    return b;
  }

  it('needs the password re-entered; wrong password is wrong_password', async () => {
    const b = await admin();
    expect((await b.patch('/accounts/api/admin/subdomain', { subdomain: 'acme-corp' })).body).toEqual({ message: 'password-verification-required' });
    expect((await b.post('/accounts/api/password/verify', { password: 'nope' })).body).toEqual({ message: 'wrong_password' });
  });

  it('changes the custom subdomain and hands the session to the new host with status=changed', async () => {
    const b = await verified();
    const r = await b.patch('/accounts/api/admin/subdomain', { subdomain: 'Acme-Corp' });
    expect(r.body).toMatchObject({ message: 'success', subdomain: 'acme-corp', initial_subdomain: 'acme' });
    const url = new URL(r.body.url);
    expect(url.host).toBe('acme-corp.localhost:8787');
    const target = h.client(url.host);
    const landed = await target.get(url.pathname + url.search);
    expect(landed.headers.get('location')).toBe('/accounts/admin/tenant-settings?status=changed');
    expect((await target.get('/accounts/api/user')).body.user.current_tenant.subdomain).toBe('acme-corp');
    // The initial subdomain keeps working.
    expect((await h.client(ACME).get('/accounts/login')).status).toBe(200);
  });

  it('refuses taken, reserved and invalid labels with the spec messages, changing nothing', async () => {
    const b = await verified();
    for (const s of ['globex', 'globex-jp', 'www', 'accounts', 'acme']) {
      expect((await b.patch('/accounts/api/admin/subdomain', { subdomain: s })).body, s).toEqual({ message: 'could-not-change' });
    }
    const short = await b.patch('/accounts/api/admin/subdomain', { subdomain: 'a' });
    expect(short.body.errors.subdomain).toEqual(['2文字以上で指定してください']);
    for (const s of ['-abc', 'abc_', 'a.b', 'x'.repeat(64), 'ab cd']) {
      expect((await b.patch('/accounts/api/admin/subdomain', { subdomain: s })).body.errors.subdomain, s).toEqual(['有効なサブドメインを入力してください']);
    }
    expect((await h.deps.db.select().from(tenants).where(eq(tenants.id, 1)).get())!.subdomain).toBeNull();
  });

  it('clearing the custom subdomain goes back to the initial host', async () => {
    const b = await verified();
    await b.patch('/accounts/api/admin/subdomain', { subdomain: 'acme-corp' });
    const r = await b.patch('/accounts/api/admin/subdomain', { subdomain: null });
    expect(new URL(r.body.url).host).toBe('acme.localhost:8787');
  });
});

describe('IP restriction', () => {
  const IP = ADMIN_IP;

  it('lists, adds with prefix and description, refuses duplicates and non-public addresses', async () => {
    const b = await admin();
    expect((await b.get('/accounts/api/admin/whitelisted-ips')).body).toEqual([]);
    const added = await b.post('/accounts/api/admin/whitelisted-ips', { ipAddress: IP, description: '本社' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ ip_address: IP, prefix_length: 32, description: '本社' });
    expect((await b.post('/accounts/api/admin/whitelisted-ips', { ipAddress: OFFICE, prefixLength: 24 })).status).toBe(201);
    expect((await b.post('/accounts/api/admin/whitelisted-ips', { ipAddress: IP })).body).toEqual({ message: 'duplicate-ip' });
    for (const ip of ['10.0.0.1', '192.168.1.1', '172.16.0.1', '127.0.0.1', '0.0.0.0', '224.0.0.1', '203.0.113.5', '100.64.0.1']) {
      expect((await b.post('/accounts/api/admin/whitelisted-ips', { ipAddress: ip })).body.message, ip).toBe('The ip address must be a public IP address.');
    }
    expect((await b.post('/accounts/api/admin/whitelisted-ips', { ipAddress: '1.2.3' })).status).toBe(422);
    expect((await b.post('/accounts/api/admin/whitelisted-ips', { ipAddress: '1.2.3.4', prefixLength: 33 })).status).toBe(422);
    expect((await b.get('/accounts/api/admin/whitelisted-ips')).body).toHaveLength(2);
  });

  it('enabling needs the current address listed; then logins and sessions from elsewhere are refused', async () => {
    const b = await admin();
    const member = await admin(ACME, 'user@acme.test', '192.0.2.50');
    await b.post('/accounts/api/admin/whitelisted-ips', { ipAddress: OFFICE, prefixLength: 24 });
    const refused = await b.request('PATCH', '/accounts/api/admin/enable-ip-restriction');
    expect(refused.body).toEqual({ message: 'your-current-ip-address-is-not-whitelisted', ipAddress: IP });
    await b.post('/accounts/api/admin/whitelisted-ips', { ipAddress: IP });
    expect((await confirmed(b, 'PATCH', '/accounts/api/admin/enable-ip-restriction')).body).toEqual({ message: 'success' });
    expect((await member.get('/accounts/api/user')).body).toEqual({ message: 'restricted-ip' });
    expect((await h.client(ACME, { ip: '192.0.2.51' }).login('user@acme.test')).body.message).toBe('restricted-ip');
    // The member's own browser, now at the office: allowed (a new browser on a new network would
    // also meet the additional challenge first).
    member.ip = '133.242.20.9';
    expect((await member.login('user@acme.test')).body.message).toBe('success');
    member.ip = '192.0.2.50';
    expect((await b.request('PATCH', '/accounts/api/admin/disable-ip-restriction')).body).toEqual({ message: 'success' });
    expect((await member.get('/accounts/api/user')).status).toBe(200);
  });

  it('the entry covering the admin address cannot be deleted while enabled; another tenant id is 404', async () => {
    const b = await admin();
    const own = (await b.post('/accounts/api/admin/whitelisted-ips', { ipAddress: IP })).body;
    const other = (await b.post('/accounts/api/admin/whitelisted-ips', { ipAddress: OFFICE, prefixLength: 24 })).body;
    await confirmed(b, 'PATCH', '/accounts/api/admin/enable-ip-restriction');
    expect((await b.request('DELETE', `/accounts/api/admin/whitelisted-ips/${own.id}`)).body).toEqual({ message: 'cannot-delete' });
    expect((await b.request('DELETE', `/accounts/api/admin/whitelisted-ips/${other.id}`)).body).toEqual({ message: 'success' });
    const globex = await admin('globex-jp.localhost:8787', 'multi@example.test');
    await h.deps.db.update(tenants).set({ isFeatureIpRestrictionSubscribed: true }).where(eq(tenants.id, 2));
    expect((await globex.request('DELETE', `/accounts/api/admin/whitelisted-ips/${own.id}`)).status).toBe(404);
  });

  it('needs the subscription', async () => {
    const globex = await admin('globex-jp.localhost:8787', 'multi@example.test');
    expect((await globex.get('/accounts/api/admin/whitelisted-ips')).body).toEqual({ message: 'feature-not-subscribed' });
  });
});

describe('two-factor enforcement and password policy', () => {
  it('POST /admin/twofa stores the policy (subscription needed) and the next login of a member without 2FA must set it up', async () => {
    const b = await admin();
    expect((await confirmed(b, 'POST', '/accounts/api/admin/twofa', { isTwofaEnforced: true, isTwofaSkipAllowed: false })).body).toEqual({ message: 'success', isTwofaEnforced: true, isTwofaSkipAllowed: false, passkeyPolicy: 'allowed' }); // the passkey policy, unchanged when absent (decision 0039)
    expect((await h.client(ACME).login('user@acme.test')).body.message).toBe('enable-twofa');
    const globex = await admin('globex-jp.localhost:8787', 'multi@example.test');
    expect((await globex.post('/accounts/api/admin/twofa', { isTwofaEnforced: true, isTwofaSkipAllowed: false })).status).toBe(403);
    expect((await b.post('/accounts/api/admin/twofa', { isTwofaEnforced: 'yes' })).status).toBe(422);
  });

  it('GET/PATCH password-policy; the minimum is 8; a stricter policy makes the next login non-compliant', async () => {
    const b = await admin();
    expect((await b.get('/accounts/api/admin/password-policy')).body).toEqual({ minimumPasswordLength: 8, isMixedCaseRequired: true, isNumberRequired: true, isSpecialCharacterRequired: true });
    const low = await b.patch('/accounts/api/admin/password-policy', { minimumPasswordLength: 7, isMixedCaseRequired: true, isNumberRequired: true, isSpecialCharacterRequired: true });
    expect(low.body.errors.minimumPasswordLength).toEqual(['パスワードは8文字以上にしてください']);
    const ok = await confirmed(b, 'PATCH', '/accounts/api/admin/password-policy', { minimumPasswordLength: 20, isMixedCaseRequired: true, isNumberRequired: false, isSpecialCharacterRequired: false });
    expect(ok.body.message).toBe('success');
    const login = await h.client(ACME).login('user@acme.test');
    expect(login.body.password_compliance).toMatchObject({ meets_current_policy: false, policy: { minimum_password_length: 20, is_number_required: false } });
    expect((await h.client(ACME).get('/accounts/api/users/password-policy/user%40acme.test')).body.minimum_password_length).toBe(20);
  });
});

describe('contacts', () => {
  const contact = { companyName: ' Acme 経理 ', name: '経理 太郎', department: '経理部', position: '課長', email: 'billing@acme.test', contactNumber: '03-0000-0000', postalCode: '100-0001', address: '東京都千代田区' };

  it('primary can be edited, billing registered, edited and deleted; inputs are trimmed', async () => {
    const b = await admin();
    const before = (await b.get('/accounts/api/admin/tenant-contacts')).body;
    expect(before.billing_contact).toBeNull();
    expect(before.primary_contact.company_name).toBe('Acme Corporation');
    const created = await b.post('/accounts/api/admin/tenant-contacts/billing-contact', contact);
    expect(created.status).toBe(201);
    expect(created.body.company_name).toBe('Acme 経理');
    expect((await b.post('/accounts/api/admin/tenant-contacts/billing-contact', contact)).status).toBe(409);
    const edited = await b.patch(`/accounts/api/admin/tenant-contacts/${created.body.id}`, { ...contact, name: '経理 花子' });
    expect(edited.body.name).toBe('経理 花子');
    expect((await b.patch(`/accounts/api/admin/tenant-contacts/${before.primary_contact.id}`, { ...contact, companyName: 'Acme Corp.' })).body.company_name).toBe('Acme Corp.');
    expect((await b.request('DELETE', `/accounts/api/admin/tenant-contacts/${before.primary_contact.id}`)).status).toBe(422);
    expect((await b.request('DELETE', `/accounts/api/admin/tenant-contacts/${created.body.id}`)).body).toEqual({ message: 'success' });
    expect((await b.get('/accounts/api/admin/tenant-contacts')).body.billing_contact).toBeNull();
  });

  it('validates required fields after trimming and the email', async () => {
    const b = await admin();
    const r = await b.post('/accounts/api/admin/tenant-contacts/billing-contact', { ...contact, companyName: '   ', email: 'nope', address: '' });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({ companyName: ['必須項目です'], email: ['メールアドレスが無効です'], address: ['必須項目です'] });
  });

  it("another tenant's contact id is 404", async () => {
    const b = await admin();
    const globex = await admin('globex-jp.localhost:8787', 'multi@example.test');
    const globexPrimary = (await globex.get('/accounts/api/admin/tenant-contacts')).body.primary_contact.id;
    expect((await b.patch(`/accounts/api/admin/tenant-contacts/${globexPrimary}`, contact)).status).toBe(404);
  });
});

describe('subscriptions and requests', () => {
  it('contract details: dates, limits (null = unlimited) and active accounts counted from members', async () => {
    const b = await admin();
    const d = (await b.get('/accounts/api/admin/contract-details')).body;
    expect(d).toMatchObject({
      meishi_users_limit: 10,
      meishi_active_accounts: 4, // admin, user, multi, totp (gone is deactivated)
      is_tenant_subscribed_to_scheduler: true,
      scheduler_users_limit: 5,
      scheduler_active_accounts: 1,
      feature_sso_users_limit: 10,
      sso_active_accounts: 0,
      is_feature_ip_restriction_subscribed: true,
      trial_ends_at: null,
    });
    expect(d.contract_starts_at).toMatch(/^\d{4}-/);
    const globex = await admin('globex-jp.localhost:8787', 'multi@example.test');
    const g = (await globex.get('/accounts/api/admin/contract-details')).body;
    expect(g.meishi_users_limit).toBeNull();
    expect(g.is_tenant_subscribed_to_scheduler).toBe(false);
    expect(new Date(g.trial_ends_at).getTime()).toBe(h.clock.now() + 14 * 86_400_000);
  });

  it('get more services stores the request and mails sales; nothing selected or a lower plan is refused', async () => {
    const b = await admin();
    await h.deps.db.update(contractDetails).set({ featureBulkEmailMonthlyLimit: 30_000 }).where(eq(contractDetails.tenantId, 1));
    const r = await b.post('/accounts/api/admin/get-more-services', [
      { key: 'addMeishiUsers', value: 5 },
      { key: 'addSchedulerUsers', value: 0 },
      { key: 'subscribeToKintone', value: true },
      { key: 'subscribeToHigherBulkEmailPlan', value: 50_000 },
    ]);
    expect(r.body).toEqual({ message: 'success' });
    const [req] = await h.deps.db.select().from(serviceRequests);
    expect(req!.payload).toEqual([
      { key: 'addMeishiUsers', value: 5 },
      { key: 'subscribeToKintone', value: true },
      { key: 'subscribeToHigherBulkEmailPlan', value: 50_000 },
    ]);
    expect((await lastMail(h, 'sales@provider.test')).body).toContain('addMeishiUsers: 5');
    expect((await b.post('/accounts/api/admin/get-more-services', [{ key: 'addMeishiUsers', value: 0 }])).body).toEqual({ message: 'nothing-requested' });
    expect((await b.post('/accounts/api/admin/get-more-services', [{ key: 'subscribeToHigherBulkEmailPlan', value: 20_000 }])).body).toEqual({ message: 'invalid-plan' });
    expect((await b.post('/accounts/api/admin/get-more-services', [{ key: 'hack', value: 1 }])).status).toBe(422);
    expect((await b.post('/accounts/api/admin/get-more-services', [{ key: 'addMeishiUsers', value: -1 }])).status).toBe(422);
  });

  it('apply-for-contract records one application a day for a tenant whose trial has expired', async () => {
    const b = await admin('initech.localhost:8787', 'admin@initech.test');
    expect((await b.post('/accounts/api/apply-for-contract', {})).body).toEqual({ message: 'success' });
    expect((await b.post('/accounts/api/apply-for-contract', {})).body).toEqual({ message: 'already-applied' });
    expect((await lastMail(h, 'sales@provider.test')).subject).toContain('Contract application: Initech');
    const acme = await admin();
    expect((await acme.post('/accounts/api/apply-for-contract', {})).status).toBe(409);
  });
});
