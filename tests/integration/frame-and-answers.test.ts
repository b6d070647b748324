// Pages made whole with their headers (routes/middleware/security.ts completeAnswer) and the
// frame rendered once per inputs (ui/Frame.tsx): what they keep must never cross people, roles,
// languages or tenants, and a header a page chose must survive.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema';
import { createHarness, type Harness, type TestClient } from '../support/harness';
import { islandProps } from '../support/island-props';
import { lastMail, linkIn } from '../support/mail';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const signedIn = (email: string, host = ACME): Promise<TestClient> => h.signedIn(email, host, { otherBrowser: true });
const drawer = (html: string) => /<nav id="side-drawer"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
const islandIds = (html: string) => [...html.matchAll(/data-island="(\w+)" data-island-id="(island-\d+)"/g)].map((m) => `${m[1]}:${m[2]}`);

describe('the frame, rendered once per inputs', () => {
  it('each person, role and page gets its own toolbar and drawer, in a repeat as at first', async () => {
    const admin = await signedIn('admin@acme.test');
    const user = await signedIn('user@acme.test');
    for (let round = 0; round < 2; round++) {
      const a = await admin.get('/accounts/my-account');
      const u = await user.get('/accounts/my-account');
      expect(islandProps(a.text, 'Toolbar').userName).toBe('Acme 管理者');
      expect(islandProps(u.text, 'Toolbar').userName).toBe('山田 太郎');
      expect(drawer(a.text)).toContain('/accounts/admin/users');
      expect(drawer(u.text)).not.toContain('/accounts/admin/');
      const users = await admin.get('/accounts/admin/users');
      expect(drawer(users.text)).toMatch(/href="\/accounts\/admin\/users" aria-current="page"/);
      expect(drawer(users.text)).not.toMatch(/href="\/accounts\/my-account" aria-current/);
      // The page's own islands are numbered after the frame's, as when everything was rendered at once.
      expect(islandIds(users.text)).toEqual(['Toolbar:island-0', 'UsersScreen:island-1']);
      expect(users.text).toContain('<script type="application/json" id="island-1-props">');
      expect(users.text).not.toContain('data-frame-');
    }
  });

  it('a new name, another language and another tenant show at once', async () => {
    const admin = await signedIn('admin@acme.test');
    const user = await signedIn('user@acme.test');
    expect(islandProps((await user.get('/accounts/my-account')).text, 'Toolbar').userName).toBe('山田 太郎');
    // The account's own name (the toolbar's), as a change on the person's identity writes it.
    await h.deps.db.update(users).set({ name: '山田 次郎' }).where(eq(users.email, 'user@acme.test'));
    expect(islandProps((await user.get('/accounts/my-account')).text, 'Toolbar').userName).toBe('山田 次郎');
    expect(islandProps((await admin.get('/accounts/my-account')).text, 'Toolbar').userName).toBe('Acme 管理者');

    const ja = await user.get('/accounts/my-account');
    expect((await user.patch('/accounts/api/user/language', { language: 'en' })).status).toBe(200);
    const en = await user.get('/accounts/my-account');
    expect(drawer(ja.text)).toContain('マイアカウント');
    expect(drawer(en.text)).toContain('My Account');
    expect(drawer(en.text)).not.toContain('マイアカウント');

    // One person on two tenants' hosts: the same inputs but the current tenant, each its own frame.
    const onAcme = await signedIn('multi@example.test');
    const onGlobex = await signedIn('multi@example.test', 'globex.localhost:8787');
    const tenants = (html: string) => islandProps(html, 'Toolbar').tenants.map((t: { hostLabel: string; current: boolean }) => `${t.hostLabel}:${t.current}`);
    for (let round = 0; round < 2; round++) {
      expect(tenants((await onAcme.get('/accounts/my-account')).text)).toEqual(['acme:true', 'globex-jp:false']);
      expect(tenants((await onGlobex.get('/accounts/my-account')).text)).toEqual(['acme:false', 'globex-jp:true']);
    }
  });
});

describe('pages answered whole', () => {
  it('a page carries the whole security set and no-store', async () => {
    const r = await (await signedIn('admin@acme.test')).get('/accounts/admin/departments');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(r.headers.get('content-security-policy')).toMatch(/script-src 'nonce-[0-9a-f]{32}' 'strict-dynamic'/);
    for (const [name, value] of [
      ['x-content-type-options', 'nosniff'],
      ['x-frame-options', 'DENY'],
      ['referrer-policy', 'strict-origin-when-cross-origin'],
      ['cross-origin-opener-policy', 'same-origin'],
      ['permissions-policy', 'camera=(), microphone=(), geolocation=()'],
      ['cache-control', 'no-store'],
    ]) expect(r.headers.get(name!), name).toBe(value);
    expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a header the page chose before its answer is kept, with the rest of the set', async () => {
    // The reset page keeps its token out of Referer headers to other sites.
    expect((await h.client(ACME).post('/accounts/api/password/email', { email: 'user@acme.test' })).body).toEqual({ message: 'email_sent' });
    const link = linkIn((await lastMail(h, 'user@acme.test')).body);
    const r = await h.client(ACME).get(`${link.pathname}${link.search}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('referrer-policy')).toBe('same-origin');
    expect(r.headers.get('content-security-policy')).toMatch(/'nonce-[0-9a-f]{32}'/);
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  it('in dev mode a page says how long its render took (Server-Timing); in production it does not', async () => {
    const r = await (await signedIn('admin@acme.test')).get('/accounts/admin/users');
    const timing = /^render;dur=(\d+\.\d{3})$/.exec(r.headers.get('server-timing') ?? '');
    expect(timing, r.headers.get('server-timing') ?? 'none').not.toBeNull();
    expect(Number(timing![1])).toBeGreaterThan(0);
    // An API answer renders nothing.
    expect((await (await signedIn('admin@acme.test')).get('/accounts/api/user')).headers.get('server-timing')).toBeNull();

    const production = await createHarness({ DEV_MODE: 'false', SMTP_URL: 'smtps://mail.example.com', LINK_SIGNING_KEY: 'k'.repeat(32), DATA_ENCRYPTION_KEY: 'd'.repeat(32) });
    try {
      const page = await production.client(ACME).get('/accounts/login');
      expect(page.status).toBe(200);
      expect(page.headers.get('server-timing')).toBeNull();
    } finally {
      production.close();
    }
  });
});
