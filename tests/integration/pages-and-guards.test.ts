// The route table's guards (spec 01 section 2, spec 02 section 2), titles and security headers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/shared/routes';
import { createHarness, type Harness, type TestClient } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const signedIn = (email: string, host = ACME): Promise<TestClient> => h.signedIn(email, host);
const location = (r: { headers: Headers }) => r.headers.get('location');

describe('guards driven by the route table', () => {
  it('an unauthenticated visit to a protected route goes to login with continue = path and query', async () => {
    const b = h.client(ACME);
    for (const path of ['/accounts/my-account', '/accounts/admin/users?x=1&y=%E3%81%82', '/accounts/twofa', '/accounts/admin/subscriptions']) {
      const r = await b.get(path);
      expect(r.status).toBe(302);
      expect(location(r)).toBe(`/accounts/login?continue=${encodeURIComponent(path)}`);
    }
  });

  it('a normal user is sent to my-account from admin and admin-or-manager routes', async () => {
    const b = await signedIn('user@acme.test');
    for (const path of ['/accounts/admin/users', '/accounts/admin/departments', '/accounts/admin/passwords', '/accounts/admin/sso-setting', '/accounts/admin/scim']) {
      const r = await b.get(path);
      expect(r.status, path).toBe(302);
      expect(location(r)).toBe('/accounts/my-account');
    }
  });

  it('an admin passes every admin guard and every admin screen exists', async () => {
    const b = await signedIn('admin@acme.test');
    for (const r of ROUTES.filter((x) => x.access === 'admin' || x.access === 'admin-or-manager')) {
      const res = await b.get(`/accounts${r.paths[0]}`);
      expect(res.status, r.name).toBe(200);
    }
  });

  it('a tenant manager reaches manager routes on a subdomain, but not admin-only ones', async () => {
    const b = await signedIn('manager@staff.test', 'initech.localhost:8787');
    expect((await b.get('/accounts/admin/users')).status).toBe(200);
    expect((await b.get('/accounts/admin/deactivated')).status).toBe(200);
    const r = await b.get('/accounts/admin/tenant-settings');
    expect(r.status).toBe(302);
    expect(location(r)).toBe('/accounts/my-account');
  });

  it('a tenant manager on the main domain has no tenant to manage', async () => {
    const b = await signedIn('manager@staff.test', 'localhost:8787');
    expect(location(await b.get('/accounts/admin/users'))).toBe('/accounts/my-account');
  });

  it('a signed-in user on public routes goes to my-account, except login, verify, reset and open-meishi-mobile', async () => {
    const b = await signedIn('user@acme.test');
    for (const path of ['/accounts/forgot', '/accounts/otp', '/accounts/recovery', '/accounts/register/a%40b.test', '/accounts/additional-challenge']) {
      const r = await b.get(path);
      expect(r.status, path).toBe(302);
      expect(location(r)).toBe('/accounts/my-account');
    }
    for (const path of ['/accounts/reset', '/accounts/verify/a%40b.test', '/accounts/open-meishi-mobile']) {
      expect((await b.get(path)).status, path).not.toBe(302);
    }
    // Login shows the redirection step; with one destination (this member's one app) it goes there.
    const login = await b.get('/accounts/login');
    expect(login.status).toBe(302);
    expect(location(login)).toBe('/meishi/');
    const admin = await signedIn('admin@acme.test');
    const chooser = await admin.get('/accounts/login');
    expect(chooser.status).toBe(200);
    expect(chooser.text).toContain('data-island="Redirection"');
  });

  it('an admin of one tenant is not an admin on another tenant host', async () => {
    const b = await signedIn('multi@example.test'); // Acme normal member, Globex admin
    expect(location(await b.get('/accounts/admin/users'))).toBe('/accounts/my-account');
  });
});

describe('server-rendered pages', () => {
  it('login page: title, language, heading, footer switch and copyright, no script without islands', async () => {
    const r = await h.client(ACME).get('/accounts/login');
    expect(r.status).toBe(200);
    expect(r.text).toContain('<html lang="ja">');
    expect(r.text).toContain('<title>ログイン | Nexta Meishi</title>');
    expect(r.text).toContain('Acme Corporation にログイン');
    expect(r.text).toContain('data-island="LoginForm"');
    expect(r.text).toContain('data-island="LanguageSwitch"');
    expect(r.text).toMatch(/© 2026 Nexta Inc/);
    const en = await h.client(ACME).get('/accounts/login', { headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(en.text).toContain('<title>Log in | Nexta Meishi</title>');
    const cookie = await h.client(ACME).get('/accounts/login', { headers: { cookie: 'portal_locale=en', 'accept-language': 'ja' } });
    expect(cookie.text).toContain('<html lang="en">');
  });

  it('the login form posts to the login page (no password in an address); ?email= fills the email in', async () => {
    // Submitted before the island hydrates, or without JavaScript, the form is a POST to the page
    // (decision 0029): the password travels in the body, never in the address.
    const main = await h.client('localhost:8787').get('/accounts/login?continue=%2Faccounts%2Fmy-account');
    const form = /<form [^>]*>/.exec(main.text)![0];
    expect(form).toContain('method="post"');
    expect(form).toContain('action="/accounts/login?continue=%2Faccounts%2Fmy-account"');
    expect(main.text).toMatch(/<input id="login-email"[^>]* name="email"/);
    expect(main.text).toMatch(/<input id="login-password"[^>]* name="password"/);
    // The Back link of the password step comes back with the email filled in (when it is an email address at all).
    const back = await h.client(ACME).get('/accounts/login?email=admin%40acme.test');
    expect(back.text).toMatch(/<input id="login-email"[^>]* value="admin@acme.test"/);
    const junk = await h.client(ACME).get('/accounts/login?email=%3Cscript%3E');
    expect(junk.text).toMatch(/<input id="login-email"[^>]* value=""/);
  });

  it('my-account renders the toolbar, the admin drawer and the version for an admin', async () => {
    const b = await signedIn('admin@acme.test');
    const r = await b.get('/accounts/my-account');
    expect(r.status).toBe(200);
    expect(r.text).toContain('<title>マイアカウント | Nexta Meishi</title>');
    for (const label of ['ユーザー管理', '部署管理', 'テナントURLの設定', 'セキュリティ', 'IPアドレス制限', 'お支払い', 'サービスの追加', '名刺アプリ', 'スケジューラー', 'v2.53.2']) {
      expect(r.text, label).toContain(label);
    }
    expect((await b.get('/accounts/security')).status).toBe(200);
  });

  it('the drawer marks the current screen; deactivated users, reached from the users screen, mark its entry', async () => {
    const b = await signedIn('admin@acme.test');
    const current = async (path: string) => /<a href="([^"]+)" aria-current="page"/.exec((await b.get(path)).text)?.[1];
    expect(await current('/accounts/admin/departments')).toBe('/accounts/admin/departments');
    expect(await current('/accounts/admin/deactivated')).toBe('/accounts/admin/users');
  });

  it('a normal user sees no admin entries; the user language setting wins over the cookie', async () => {
    const b = await signedIn('multi@example.test'); // language en
    const r = await b.get('/accounts/my-account', { headers: { cookie: `${[...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ')}; portal_locale=ja` } });
    expect(r.text).toContain('<html lang="en">');
    expect(r.text).toContain('My Account');
    expect(r.text).not.toContain('Manage Users');
    expect(r.text).not.toContain('Configure Tenant URL');
  });

  it('the Switch Organization data lists every tenant of a multi-tenant user', async () => {
    const b = await signedIn('multi@example.test');
    const r = await b.get('/accounts/my-account');
    expect(r.text).toContain('globex-jp');
    expect(r.text).toContain('Globex 株式会社');
  });
});

describe('security headers', () => {
  it('CSP with a per-response nonce that the module script carries, and the rest of the set', async () => {
    const b = h.client(ACME);
    const a = await b.get('/accounts/login');
    const csp = a.headers.get('content-security-policy')!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(a.text).toContain(`<script type="module" nonce="${nonce}"`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    const b2 = await b.get('/accounts/login');
    expect(b2.headers.get('content-security-policy')).not.toBe(csp);
    expect(a.headers.get('x-content-type-options')).toBe('nosniff');
    expect(a.headers.get('x-frame-options')).toBe('DENY');
    expect(a.headers.get('cache-control')).toBe('no-store');
    expect(a.headers.get('strict-transport-security')).toBeNull();
  });

  it('answers that are not pages carry the strictest policy, with no nonce', async () => {
    const b = await signedIn('admin@acme.test');
    const pageCsp = (await b.get('/accounts/my-account')).headers.get('content-security-policy')!;
    expect(pageCsp).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/);
    const none = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    // A JSON answer made by the middleware's path, a redirect, and a signed-out refusal.
    expect((await b.get('/accounts/api/session-devices')).headers.get('content-security-policy')).toBe(none);
    expect((await h.client(ACME).get('/')).headers.get('content-security-policy')).toBe(none);
    expect((await h.client(ACME).get('/accounts/api/user')).headers.get('content-security-policy')).toBe(none);
  });

  it('the signed-in GET api/user (answered with its headers at once) carries the same set', async () => {
    const b = await signedIn('admin@acme.test');
    const r = await b.get('/accounts/api/user');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.headers.get('content-security-policy')).toBe("default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    for (const [name, value] of [
      ['x-content-type-options', 'nosniff'],
      ['x-frame-options', 'DENY'],
      ['referrer-policy', 'strict-origin-when-cross-origin'],
      ['cross-origin-opener-policy', 'same-origin'],
      ['permissions-policy', 'camera=(), microphone=(), geolocation=()'],
      ['cache-control', 'no-store'],
    ]) expect(r.headers.get(name!)).toBe(value);
    expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.headers.get('strict-transport-security')).toBeNull();
  });

  it('HSTS for one year under https', async () => {
    const r = await h.client(ACME, { https: true }).get('/accounts/login');
    expect(r.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('user-supplied text is escaped in pages', async () => {
    const r = await h.client(ACME).get('/accounts/login?continue=%3C%2Fscript%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(r.text).not.toContain('<script>alert(1)</script>');
  });
});
