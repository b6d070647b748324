// The Workers entry (src/entry/worker.ts) in workerd with a local D1, through `wrangler dev`
// (started once by tests/workers/global-setup.ts over a fresh D1 seeded with the demo data).
// The same behaviours as tests/integration/login.test.ts, plus hosts, hand-off, pages and assets.
import { readdirSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { waitForMail } from './support/mail';
import { Browser, type HostClient } from './support/client';

const port = inject('workerPort');
const PASSWORD = 'Portal-Demo-2026!';

const sessionCookie = (setCookies: string[]) => setCookies.find((c) => c.startsWith('portal_session='));

describe('hosts', () => {
  it('answers 401 unauthenticated on a tenant host and 404 unknown-host on an unknown one', async () => {
    const acme = await new Browser(port).on('acme.localhost').get('/accounts/api/user');
    expect(acme.status).toBe(401);
    expect(acme.body).toMatchObject({ message: 'unauthenticated' });
    const nope = await new Browser(port).on('nope.localhost').get('/accounts/api/user');
    expect(nope.status).toBe(404);
    expect(nope.body).toEqual({ message: 'unknown-host' });
  });
});

describe('POST /accounts/api/v2/login in workerd', () => {
  it('signs in an Acme admin with the seed\'s Node-made argon2id hash and sets a host-only session cookie', async () => {
    const acme = new Browser(port).on('acme.localhost');
    const r = await acme.login('admin@acme.test', PASSWORD);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('success');
    expect(r.body.user.email).toBe('admin@acme.test');
    expect(r.body.user.isAdmin).toBe(true);
    // The worker resolved the tenant from the Host header this request carried.
    expect(r.body.initial_subdomain).toBe('acme');
    const cookie = sessionCookie(r.headers.getSetCookie());
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).not.toMatch(/Domain=/i);
    // Plain http: no Secure flag and no __Host- prefix.
    expect(cookie).not.toMatch(/;\s*Secure/i);

    const me = await acme.get('/accounts/api/user');
    expect(me.status).toBe(200);
    expect(me.body.user.name).toBe('Acme 管理者');
    expect(me.body.user.current_tenant).toMatchObject({ id: 1, name: 'Acme Corporation' });
  });

  it('answers invalid-credentials for a wrong password and for an unknown email alike', async () => {
    const acme = new Browser(port).on('acme.localhost');
    const wrong = await acme.login('user@acme.test', 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'invalid-credentials' });
    const unknown = await acme.login('nobody@acme.test', 'not-the-password');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ message: 'invalid-credentials' });
    expect(sessionCookie(wrong.headers.getSetCookie())).toBeUndefined();
  });

  it('refuses a deactivated member with 403 deactivated', async () => {
    const r = await new Browser(port).on('acme.localhost').login('gone@acme.test', PASSWORD);
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('deactivated');
    expect(sessionCookie(r.headers.getSetCookie())).toBeUndefined();
  });

  it('refuses a call without X-Requested-With with 403 csrf-check-failed', async () => {
    const acme = new Browser(port).on('acme.localhost');
    const r = await acme.request('POST', '/accounts/api/v2/login', {
      raw: true,
      headers: { origin: acme.origin },
      json: { email: 'admin@acme.test', password: PASSWORD, remember: false },
    });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ message: 'csrf-check-failed' });
    expect(sessionCookie(r.headers.getSetCookie())).toBeUndefined();
  });

  it('refuses an Origin of another tenant host with 403 csrf-check-failed', async () => {
    const acme = new Browser(port).on('acme.localhost');
    const r = await acme.request('POST', '/accounts/api/v2/login', {
      headers: { origin: `http://globex-jp.localhost:${port}` },
      json: { email: 'admin@acme.test', password: PASSWORD, remember: false },
    });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ message: 'csrf-check-failed' });
  });
});

describe('sessions are per host', () => {
  it('does not accept an acme session cookie on globex-jp.localhost', async () => {
    const b = new Browser(port);
    const acme = b.on('acme.localhost');
    expect((await acme.login('multi@example.test', PASSWORD)).status).toBe(200);
    const token = acme.cookies.get('portal_session');
    expect(token).toBeTruthy();
    expect((await acme.get('/accounts/api/user')).status).toBe(200);

    // The browser would not send it (host-only), so replay it by hand: multi is a Globex member
    // too, and still the acme session must not authenticate there.
    const globex = b.on('globex-jp.localhost');
    const r = await globex.get('/accounts/api/user', { headers: { cookie: `portal_session=${token}` } });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('unauthenticated');
  });
});

describe('host hand-off from the main domain', () => {
  let main: HostClient;
  let globex: HostClient;
  let handoffPath: string;

  it('signs in on the main domain and issues a hand-off URL for Globex', async () => {
    const b = new Browser(port);
    main = b.on('localhost');
    globex = b.on('globex-jp.localhost');
    const login = await main.login('multi@example.test', PASSWORD);
    expect(login.status).toBe(200);
    expect(login.body.message).toBe('success');
    expect(login.body.user.tenants.map((t: { id: number }) => t.id).sort()).toEqual([1, 2]);
    expect(main.cookies.get('portal_session')).toBeTruthy();

    const r = await main.post('/accounts/api/handoff', { tenant_id: 2 });
    expect(r.status).toBe(200);
    const url = new URL(r.body.url);
    // The custom subdomain, on the port the request came in on.
    expect(url.origin).toBe(`http://globex-jp.localhost:${port}`);
    expect(url.pathname).toBe('/accounts/handoff');
    handoffPath = url.pathname + url.search;
  });

  it('redeems the code on globex-jp.localhost for a session of that host', async () => {
    expect(globex.cookies.size).toBe(0);
    const r = await globex.get(handoffPath);
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe('/accounts/my-account');
    const cookie = sessionCookie(r.headers.getSetCookie());
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).not.toMatch(/Domain=/i);
    // A new token for this host, not the main domain's one.
    expect(globex.cookies.get('portal_session')).toBeTruthy();
    expect(globex.cookies.get('portal_session')).not.toBe(main.cookies.get('portal_session'));

    const me = await globex.get('/accounts/api/user');
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('multi@example.test');
    expect(me.body.user.current_tenant).toMatchObject({ id: 2, name: 'Globex 株式会社', subdomain: 'globex-jp' });
    expect(me.body.user.isAdmin).toBe(true);
  });

  it('does not redeem the same code twice', async () => {
    const other = new Browser(port).on('globex-jp.localhost');
    const r = await other.get(handoffPath);
    expect(r.status).toBe(400);
    expect(sessionCookie(r.headers.getSetCookie())).toBeUndefined();
  });
});

describe('pages and static assets', () => {
  it('renders the acme login page with a nonce-based Content-Security-Policy', async () => {
    const r = await new Browser(port).on('acme.localhost').get('/accounts/login');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = r.headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([A-Za-z0-9_-]+)'/.exec(csp)?.[1];
    expect(nonce, `CSP: ${csp}`).toBeTruthy();
    // The page's module script carries that nonce, and React rendered the form for Acme.
    expect(r.text).toContain(`nonce="${nonce}"`);
    expect(r.text).toContain('/accounts/assets/client.js');
    expect(r.text).toContain('Acme Corporation');
  });

  it('uses a fresh nonce per response', async () => {
    const acme = new Browser(port).on('acme.localhost');
    const [a, b] = [await acme.get('/accounts/login'), await acme.get('/accounts/login')];
    expect(a.headers.get('content-security-policy')).not.toBe(b.headers.get('content-security-policy'));
  });

  it('serves the built CSS and island bundle through Workers Assets', async () => {
    const acme = new Browser(port).on('acme.localhost');
    const css = await acme.get('/accounts/assets/app.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(css.text.length).toBeGreaterThan(1000);
    const js = await acme.get('/accounts/assets/client.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
  });

  it('receives DEV_MODE from `wrangler dev --var`: the dev outbox page is on', async () => {
    const r = await new Browser(port).on('localhost').get('/accounts/dev/outbox');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('answers an unknown host\'s page with a 404 HTML page', async () => {
    const r = await new Browser(port).on('nope.localhost').get('/accounts/login');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

describe('mail from workerd', () => {
  it('sends the password-reset mail over SMTP (cloudflare:sockets) to a real receiver, with the link on the tenant host', async () => {
    const mailDir = inject('mailDir');
    const before = new Set(readdirSync(mailDir));
    const b = new Browser(port).on('acme.localhost');
    const r = await b.post('/accounts/api/password/email', { email: 'admin@acme.test' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'email_sent' });
    const mail = await waitForMail(mailDir, 'admin@acme.test', before);
    expect(mail.to).toBe('admin@acme.test');
    // The link is built from PUBLIC_URL (its dev default, or the one the layer's setup passes) and
    // the tenant's canonical label, not from the request's Host.
    expect(mail.text).toMatch(new RegExp(`http://acme\\.localhost:${inject('publicPort')}/accounts/reset\\?email=admin%40acme\\.test&token=[A-Za-z0-9_-]{43}`));
  });
});
