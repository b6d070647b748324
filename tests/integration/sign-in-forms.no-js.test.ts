// Login, forgot password, reset and registration with JavaScript off (issue 13, decision 0029):
// the server-rendered forms post application/x-www-form-urlencoded to their own page, which calls
// the same domain functions as the JSON API and answers a redirect or the page again. State
// changes need an Origin equal to the request's own (DESIGN.md section 4).
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loginChallenges, samlSettings, sessions, tenants, tenantUsers, users } from '../../src/db/schema';
import { sendInvitation } from '../../src/domain/account/registration';
import { createHarness, type Harness, type TestClient, type TestResponse } from '../support/harness';
import { lastMail, linkIn, mailsTo } from '../support/mail';
import { islandProps } from '../support/island-props';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const MAIN = 'localhost:8787';
const PW = 'Portal-Demo-2026!';
const NEW = 'Quiet-Harbor-Lantern-88';
const INVALID_CREDENTIALS = 'メールアドレスまたはパスワードが正しくありません。';

/** What a browser without JavaScript sends for a form of the page (its own origin unless told). */
function postForm(b: TestClient, path: string, fields: Record<string, string>, origin: string | null = b.origin): Promise<TestResponse> {
  return b.request('POST', path, {
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin === null ? {} : { origin }) },
  });
}

const location = (r: TestResponse) => r.headers.get('location');
/** The registration form itself (the page's language switch is a form too). */
const REGISTER_FORM = /<form[^>]*action="\/accounts\/register\//;
const sessionCookie = (r: TestResponse) => r.headers.getSetCookie().find((c) => c.startsWith('portal_session='));
const countSessions = async () => (await h.deps.db.select().from(sessions)).length;
const alertText = (html: string) => /role="alert"[^>]*>([^<]*)</.exec(html)?.[1];
/** The opening tag of the page's first form that posts (React orders the attributes its own way). */
function postingFormTag(html: string): string {
  const tag = [...html.matchAll(/<form [^>]*>/g)].map((m) => m[0]).find((t) => t.includes('method="post"'));
  if (!tag) throw new Error('no posting form on the page');
  return tag;
}
const actionOf = (html: string) => /action="([^"]*)"/.exec(postingFormTag(html))![1]!.replace(/&amp;/g, '&');
/** Pages with a token in their address keep it from other sites (and never `no-referrer`, which would make the form's Origin "null"). */
const KEEPS_TOKEN_HOME = ['same-origin', 'strict-origin-when-cross-origin'];

describe('login without JavaScript', () => {
  it('Next on a tenant host answers the password step, the email kept and locked; no session yet', async () => {
    const b = h.client(ACME);
    const r = await postForm(b, '/accounts/login?continue=%2Faccounts%2Fmy-account', { step: 'email', email: 'user@acme.test' });
    expect(r.status).toBe(200);
    expect(r.text).toContain('<input type="hidden" name="step" value="password"/>');
    expect(r.text).toMatch(/<input id="login-email"[^>]* readOnly=""[^>]* name="email" value="user@acme.test"/);
    expect(r.text).toMatch(/<input id="login-password"[^>]* name="password"/);
    // The form keeps posting to the page with the query it came with.
    expect(r.text).toContain('action="/accounts/login?continue=%2Faccounts%2Fmy-account"');
    expect(sessionCookie(r)).toBeUndefined();
    expect(await countSessions()).toBe(0);
  });

  it('the password step signs in as the API does and goes to the one app', async () => {
    const b = h.client(ACME);
    const r = await postForm(b, '/accounts/login', { step: 'password', email: 'user@acme.test', password: PW });
    expect(r.status).toBe(303);
    expect(location(r)).toBe('/meishi/');
    const cookie = sessionCookie(r)!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Domain=/i);
    expect(cookie).not.toMatch(/Expires=/i);
    expect((await b.get('/accounts/api/user')).body.user.email).toBe('user@acme.test');
    // Keep me logged in: a persistent cookie, as with the API.
    const kept = await postForm(h.client(ACME), '/accounts/login', { step: 'password', email: 'user@acme.test', password: PW, remember: '1' });
    expect(sessionCookie(kept)).toMatch(/Expires=/);
  });

  it('a wrong password shows the spec message with the email kept, in the password step', async () => {
    const b = h.client(ACME);
    const r = await postForm(b, '/accounts/login', { step: 'password', email: 'admin@acme.test', password: 'wrong' });
    expect(r.status).toBe(401);
    expect(alertText(r.text)).toBe(INVALID_CREDENTIALS);
    expect(r.text).toMatch(/<input id="login-email"[^>]* value="admin@acme.test"/);
    expect(r.text).toMatch(/<input id="login-password"[^>]* value=""/);
    expect(sessionCookie(r)).toBeUndefined();
    // The island hydrates with the same state.
    expect(islandProps(r.text, 'LoginForm')).toMatchObject({ initialStep: 'password', initialEmail: 'admin@acme.test', initialAlert: 'errors.invalid-credentials' });
    // In English too.
    const en = await postForm(b, '/accounts/login', { step: 'password', email: 'admin@acme.test', password: 'wrong' }).then(() =>
      b.request('POST', '/accounts/login', {
        body: 'step=password&email=admin%40acme.test&password=wrong',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: b.origin, 'accept-language': 'en' },
      }),
    );
    expect(alertText(en.text)).toBe('These credentials do not match our records.');
  });

  it('an empty password or a malformed email is refused before anything is checked', async () => {
    const b = h.client(ACME);
    const r = await postForm(b, '/accounts/login', { step: 'password', email: 'admin@acme.test', password: '' });
    expect(r.status).toBe(422);
    expect(r.text).toContain('必須項目です');
    const next = await postForm(b, '/accounts/login', { step: 'email', email: 'not-an-address' });
    expect(next.status).toBe(422);
    expect(next.text).toContain('有効なメールアドレスを入力してください');
    expect(next.text).toContain('<input type="hidden" name="step" value="email"/>');
  });

  it('the limits are the API\'s own: attempts by form and by API count together', async () => {
    const b = h.client(ACME);
    for (let i = 0; i < 3; i++) expect((await b.login('admin@acme.test', 'wrong')).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await postForm(b, '/accounts/login', { step: 'password', email: 'admin@acme.test', password: 'wrong' })).status).toBe(401);
    const r = await postForm(b, '/accounts/login', { step: 'password', email: 'admin@acme.test', password: PW });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(r.text).toMatch(/ログインの試行回数が多すぎます。\d+ 秒後にもう一度お試しください。/);
    expect(await countSessions()).toBe(0);
    expect((await b.login('admin@acme.test')).status).toBe(429);
  });

  it('refuses a form from another origin (another tenant host too), without Origin, or not urlencoded', async () => {
    const b = h.client(ACME);
    for (const origin of ['http://evil.example', 'http://globex.localhost:8787', 'https://acme.localhost:8787', null]) {
      const r = await postForm(b, '/accounts/login', { step: 'password', email: 'user@acme.test', password: PW }, origin);
      expect(r.status, String(origin)).toBe(403);
      expect(r.text).toContain('このフォームは受け付けられませんでした。');
      expect(sessionCookie(r)).toBeUndefined();
    }
    const json = await b.request('POST', '/accounts/login', { json: { step: 'password', email: 'user@acme.test', password: PW }, headers: { origin: b.origin } });
    expect(json.status).toBe(415);
    const huge = await postForm(b, '/accounts/login', { step: 'password', email: 'user@acme.test', password: 'x'.repeat(20_000) });
    expect(huge.status).toBe(413);
    expect(await countSessions()).toBe(0);
    // Refused before the domain: no attempt was counted against the account.
    expect((await b.login('user@acme.test')).status).toBe(200);
  });

  it('a second factor: the pending login cookie, then the one-time-code page with the query kept', async () => {
    const b = h.client(ACME);
    const r = await postForm(b, '/accounts/login?continue=%2Fscheduler%2F', { step: 'password', email: 'totp@acme.test', password: PW });
    expect(r.status).toBe(303);
    expect(location(r)).toBe('/accounts/otp?continue=%2Fscheduler%2F');
    expect(r.headers.getSetCookie().some((c) => c.startsWith('portal_login_challenge='))).toBe(true);
    expect(sessionCookie(r)).toBeUndefined();
    expect(await h.deps.db.select().from(loginChallenges)).toHaveLength(1);
    expect((await b.get('/accounts/otp?continue=%2Fscheduler%2F')).status).toBe(200);
  });

  it('a new device on a new network: the emailed-code page, with the email', async () => {
    expect((await h.client(ACME, { ip: '203.0.113.10' }).login('user@acme.test')).body.message).toBe('success');
    const fresh = h.client(ACME, { ip: '198.51.100.20', otherBrowser: true });
    const r = await postForm(fresh, '/accounts/login', { step: 'password', email: 'user@acme.test', password: PW });
    expect(r.status).toBe(303);
    expect(location(r)).toBe('/accounts/additional-challenge?email=user%40acme.test');
  });

  it('a continue path inside the portal is where a signed-in user goes', async () => {
    const r = await postForm(h.client(ACME), '/accounts/login?continue=%2Faccounts%2Fmy-account', { step: 'password', email: 'admin@acme.test', password: PW });
    expect(r.status).toBe(303);
    expect(location(r)).toBe('/accounts/my-account');
  });

  it('two apps: back to the login page, which shows the app chooser as links', async () => {
    const b = h.client(ACME);
    const r = await postForm(b, '/accounts/login', { step: 'password', email: 'admin@acme.test', password: PW });
    expect(r.status).toBe(303);
    expect(location(r)).toBe('/accounts/login');
    const chooser = await b.get('/accounts/login');
    expect(chooser.text).toContain('data-island="Redirection"');
    expect(chooser.text).toContain('<a class="block rounded border border-slate-300 px-4 py-3 text-slate-900 no-underline hover:bg-slate-100" href="/meishi/">名刺アプリ</a>');
    expect(chooser.text).toContain('href="/scheduler/"');
  });

  it('on the main domain: the organisation chooser posts the choice, which hands off to that tenant\'s host', async () => {
    const b = h.client(MAIN);
    const r = await postForm(b, '/accounts/login', { step: 'password', email: 'multi@example.test', password: PW });
    expect(r.status).toBe(303);
    expect(location(r)).toBe('/accounts/login');
    const chooser = await b.get('/accounts/login');
    expect(actionOf(chooser.text)).toBe('/accounts/login/organization');
    expect(chooser.text).toMatch(/<button type="submit" value="1"[^>]* name="tenant_id">Acme Corporation</);
    const chosen = await postForm(b, '/accounts/login/organization', { tenant_id: '1' });
    expect(chosen.status).toBe(303);
    const handoff = new URL(location(chosen)!);
    expect(handoff.origin).toBe('http://acme.localhost:8787');
    expect(handoff.pathname).toBe('/accounts/handoff');
    // The code works on the target host like the island's hand-off.
    const there = h.client(ACME);
    const exchanged = await there.get(`${handoff.pathname}${handoff.search}`);
    expect(exchanged.status).toBe(302);
    expect((await there.get('/accounts/api/user')).body.user.email).toBe('multi@example.test');
    // The chooser's post is a state change: the same origin rule.
    expect((await postForm(b, '/accounts/login/organization', { tenant_id: '1' }, 'http://evil.example')).status).toBe(403);
    // Signed out, it only leads back to login.
    const anon = await postForm(h.client(MAIN), '/accounts/login/organization', { tenant_id: '1' });
    expect(location(anon)).toBe('/accounts/login');
  });

  it('one tenant on the main domain: the sign-in goes to the login page, whose hand-off button works without JavaScript', async () => {
    const b = h.client(MAIN);
    const r = await postForm(b, '/accounts/login', { step: 'password', email: 'user@acme.test', password: PW });
    expect(location(r)).toBe('/accounts/login');
    const page = await b.get('/accounts/login');
    const noscript = /<noscript>(.*?)<\/noscript>/.exec(page.text)![1]!;
    expect(actionOf(noscript)).toBe('/accounts/login/organization');
    expect(noscript).toMatch(/<button type="submit" value="1"[^>]* name="tenant_id">続ける</);
    const chosen = await postForm(b, '/accounts/login/organization', { tenant_id: '1' });
    expect(new URL(location(chosen)!).origin).toBe('http://acme.localhost:8787');
  });

  it('an SSO member: Next goes to the IdP of the initial subdomain, coming back to the login page', async () => {
    await h.deps.db.update(tenants).set({ isSsoEnabled: true }).where(eq(tenants.id, 1));
    const u = (await h.deps.db.select().from(users).where(eq(users.email, 'user@acme.test')).get())!;
    await h.deps.db.update(tenantUsers).set({ isSsoEnabled: true }).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.userId, u.id)));
    await h.deps.db.insert(samlSettings).values({ tenantId: 1, idpEntityId: 'https://idp.example/', idpSsoUrl: 'https://idp.example/sso', idpX509Cert: 'MII...', isIdpConfigured: true });
    const r = await postForm(h.client(ACME), '/accounts/login?continue=%2Fmeishi%2F', { step: 'email', email: 'user@acme.test' });
    expect(r.status).toBe(303);
    expect(location(r)).toBe(`http://acme.localhost:8787/accounts/api/saml2/all/login?RelayState=${encodeURIComponent('/accounts/login?continue=%2Fmeishi%2F')}`);
    // Others get the password step; on the main domain "Log in with SSO" says when it is not set up.
    expect((await postForm(h.client(ACME), '/accounts/login', { step: 'email', email: 'admin@acme.test' })).text).toContain('name="step" value="password"');
    const main = await postForm(h.client(MAIN), '/accounts/login', { step: 'sso', email: 'admin@acme.test' });
    expect(alertText(main.text)).toBe('このメールアドレスにはSSOが設定されていません。');
    expect(location(await postForm(h.client(MAIN), '/accounts/login', { step: 'sso', email: 'user@acme.test' }))).toMatch(/^http:\/\/acme\.localhost:8787\/accounts\/api\/saml2\/all\/login\?RelayState=/);
  });

  it('the main domain shows the SSO step as a page too (?step=sso), and Back links keep the email', async () => {
    const sso = await h.client(MAIN).get('/accounts/login?step=sso&email=admin%40acme.test');
    expect(sso.text).toContain('<input type="hidden" name="step" value="sso"/>');
    expect(sso.text).toMatch(/href="\/accounts\/login\?email=admin%40acme.test"[^>]*>[^<]*<span aria-hidden="true">←<\/span>/);
    // A tenant host has no SSO step of its own.
    expect((await h.client(ACME).get('/accounts/login?step=sso')).text).toContain('name="step" value="email"');
  });
});

describe('forgot password without JavaScript', () => {
  it('sends the reset mail and says so; the address stays, the button is disabled', async () => {
    const b = h.client(ACME);
    const r = await postForm(b, '/accounts/forgot?continue=%2Fmeishi%2F', { email: 'user@acme.test' });
    expect(r.status).toBe(200);
    expect(r.text).toContain('role="status"');
    expect(islandProps(r.text, 'ForgotForm')).toMatchObject({ initialEmail: 'user@acme.test', initialOutcome: { kind: 'success', key: 'forgot.emailSent' } });
    expect(r.text).toMatch(/<button type="submit" disabled=""/);
    expect(linkIn((await lastMail(h, 'user@acme.test')).body).pathname).toBe('/accounts/reset');
  });

  it('a malformed address is shown again with its message; nothing is sent', async () => {
    const r = await postForm(h.client(ACME), '/accounts/forgot', { email: 'user@' });
    expect(r.status).toBe(422);
    expect(r.text).toContain('有効なメールアドレスを入力してください');
    expect(r.text).toMatch(/<input id="forgot-email"[^>]* value="user@"/);
    expect(await mailsTo(h, 'user@')).toHaveLength(0);
  });

  it('the per-email limit is the API\'s: the fourth request in 15 minutes waits', async () => {
    const b = h.client(ACME);
    expect((await b.post('/accounts/api/password/email', { email: 'user@acme.test' })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await postForm(b, '/accounts/forgot', { email: 'user@acme.test' })).status).toBe(200);
    const r = await postForm(b, '/accounts/forgot', { email: 'user@acme.test' });
    expect(r.status).toBe(429);
    expect(r.text).toMatch(/data-testid="forgot-throttle"/);
    expect(await mailsTo(h, 'user@acme.test')).toHaveLength(3);
  });

  it('refuses a form from another origin: no mail', async () => {
    const r = await postForm(h.client(ACME), '/accounts/forgot', { email: 'user@acme.test' }, 'http://globex.localhost:8787');
    expect(r.status).toBe(403);
    expect(await mailsTo(h, 'user@acme.test')).toHaveLength(0);
  });
});

async function resetLink(email = 'user@acme.test') {
  expect((await h.client(ACME).post('/accounts/api/password/email', { email })).body).toEqual({ message: 'email_sent' });
  return linkIn((await lastMail(h, email)).body);
}

describe('reset password without JavaScript', () => {
  it('the page checks the link itself: the form with the policy, or the expiry warning', async () => {
    const link = await resetLink();
    const r = await h.client(ACME).get(`${link.pathname}${link.search}`);
    expect(r.status).toBe(200);
    expect(KEEPS_TOKEN_HOME).toContain(r.headers.get('referrer-policy'));
    expect(islandProps(r.text, 'ResetForm').policy).toMatchObject({ minimum_password_length: 8 });
    expect(r.text).toContain('8 文字以上');
    expect(r.text).toMatch(/<input id="reset-password"[^>]* name="password"/);
    const bad = await h.client(ACME).get(`/accounts/reset?email=user%40acme.test&token=${'A'.repeat(43)}`);
    expect(islandProps(bad.text, 'ResetForm').policy).toBeNull();
    expect(bad.text).toContain('data-testid="reset-invalid"');
  });

  it('sets the password, signs in (old sessions end) and goes on; the link then works no more', async () => {
    const old = h.client(ACME);
    await old.login('user@acme.test');
    const link = await resetLink();
    const b = h.client(ACME);
    const path = `${link.pathname}${link.search}`;
    const fields = { email: link.searchParams.get('email')!, token: link.searchParams.get('token')!, password: NEW, password_confirmation: NEW };
    const r = await postForm(b, path, fields);
    expect(r.status).toBe(303);
    expect(location(r)).toBe('/meishi/');
    expect(sessionCookie(r)).toBeDefined();
    expect((await b.get('/accounts/api/user')).status).toBe(200);
    expect((await old.get('/accounts/api/user')).status).toBe(401);
    expect((await h.client(ACME).login('user@acme.test', NEW)).status).toBe(200);
    expect((await h.client(ACME).get(path)).text).toContain('data-testid="reset-invalid"');
    const again = await postForm(h.client(ACME), path, { ...fields, password: 'Other-Quiet-Harbor-99', password_confirmation: 'Other-Quiet-Harbor-99' });
    expect(again.status).toBe(400);
    expect(alertText(again.text)).toBe('パスワードの再設定中にエラーが発生しました。');
  });

  it('a weak or mismatched password: the server\'s words, the form again, the link still live', async () => {
    const link = await resetLink();
    const path = `${link.pathname}${link.search}`;
    const base = { email: 'user@acme.test', token: link.searchParams.get('token')! };
    const weak = await postForm(h.client(ACME), path, { ...base, password: 'password', password_confirmation: 'password' });
    expect(weak.status).toBe(422);
    expect(alertText(weak.text)).toMatch(/パスワード/);
    const mismatch = await postForm(h.client(ACME), path, { ...base, password: NEW, password_confirmation: `${NEW}x` });
    expect(alertText(mismatch.text)).toBe('確認用パスワードが一致しません');
    expect(mismatch.text).toMatch(/<input id="reset-password"/);
    expect((await h.client(ACME).post('/accounts/api/password/verify-reset-token', base)).status).toBe(200);
  });

  it('a two-factor user goes on to the one-time-code step', async () => {
    const link = await resetLink('totp@acme.test');
    const r = await postForm(h.client(ACME), `${link.pathname}${link.search}`, { email: 'totp@acme.test', token: link.searchParams.get('token')!, password: NEW, password_confirmation: NEW });
    expect(r.status).toBe(303);
    expect(location(r)).toBe('/accounts/otp');
    expect(sessionCookie(r)).toBeUndefined();
  });

  it('refuses a form from another origin: the token is not used', async () => {
    const link = await resetLink();
    const token = link.searchParams.get('token')!;
    const r = await postForm(h.client(ACME), `${link.pathname}${link.search}`, { email: 'user@acme.test', token, password: NEW, password_confirmation: NEW }, 'http://evil.example');
    expect(r.status).toBe(403);
    expect((await h.client(ACME).post('/accounts/api/password/verify-reset-token', { email: 'user@acme.test', token })).status).toBe(200);
  });
});

async function invite(email = 'new@acme.test') {
  const now = h.clock.now();
  const [u] = await h.deps.db.insert(users).values({ name: '新人 花子', email, createdAt: now, updatedAt: now }).returning();
  await h.deps.db.insert(tenantUsers).values({ tenantId: 1, userId: u!.id, meishiAccessGrantedAt: now, invitedAt: now, createdAt: now, updatedAt: now });
  const tenant = (await h.deps.db.select().from(tenants).where(eq(tenants.id, 1)).get())!;
  await sendInvitation(h.deps, u!, tenant);
  return linkIn((await lastMail(h, email)).body);
}

describe('registration without JavaScript', () => {
  it('the page carries the policy and a form that posts to itself', async () => {
    const link = await invite();
    const r = await h.client(ACME).get(`${link.pathname}${link.search}`);
    expect(KEEPS_TOKEN_HOME).toContain(r.headers.get('referrer-policy'));
    expect(islandProps(r.text, 'RegisterForm').policy).toMatchObject({ minimum_password_length: 8 });
    const action = new URL(actionOf(r.text), link.origin);
    expect(action.pathname).toBe(link.pathname);
    for (const q of ['expires', 'id', 'signature']) expect(action.searchParams.get(q)).toBe(link.searchParams.get(q));
  });

  it('joins, signs in and goes to the one app; a second time it is already registered', async () => {
    const link = await invite();
    const path = `${link.pathname}${link.search}`;
    const b = h.client(ACME);
    const r = await postForm(b, path, { password: NEW, password_confirmation: NEW });
    expect(r.status).toBe(303);
    expect(location(r)).toBe('/meishi/');
    expect((await b.get('/accounts/api/user')).body.user.email).toBe('new@acme.test');
    const again = await postForm(h.client(ACME), path, { password: NEW, password_confirmation: NEW });
    expect(again.status).toBe(409);
    expect(alertText(again.text)).toBe('このアカウントは登録済みです。ログインしてください。');
  });

  it('the link is checked when the page loads: altered, expired or already used says so at once, with no form (decision 0033)', async () => {
    const link = await invite();
    const tampered = new URL(link.href);
    const sig = tampered.searchParams.get('signature')!;
    tampered.searchParams.set('signature', `${sig[0] === 'a' ? 'b' : 'a'}${sig.slice(1)}`);
    const altered = await h.client(ACME).get(`${tampered.pathname}${tampered.search}`);
    expect(altered.status).toBe(403);
    expect(alertText(altered.text)).toBe('署名が無効です。リンクが改変されている可能性があります。メールのリンクをそのまま開いてください。');
    expect(altered.text).not.toMatch(REGISTER_FORM);
    // The good link still shows the form, and opening it used nothing.
    const fresh = await h.client(ACME).get(`${link.pathname}${link.search}`);
    expect(fresh.status).toBe(200);
    expect(fresh.text).toContain('method="post"');
    expect((await postForm(h.client(ACME), `${link.pathname}${link.search}`, { password: NEW, password_confirmation: NEW })).status).toBe(303);
    const used = await h.client(ACME).get(`${link.pathname}${link.search}`);
    expect(used.status).toBe(409);
    expect(alertText(used.text)).toBe('このアカウントは登録済みです。ログインしてください。');
    expect(used.text).not.toMatch(REGISTER_FORM);
    const late = await invite('late@acme.test');
    h.clock.advance(8 * 86_400_000);
    const expired = await h.client(ACME).get(`${late.pathname}${late.search}`);
    expect(expired.status).toBe(410);
    expect(expired.text).not.toMatch(REGISTER_FORM);
  });

  it('an altered link says "Invalid signature." and ends the form; a weak password keeps it', async () => {
    const link = await invite();
    const tampered = new URL(link.href);
    const sig = tampered.searchParams.get('signature')!;
    tampered.searchParams.set('signature', `${sig[0] === 'a' ? 'b' : 'a'}${sig.slice(1)}`);
    const r = await postForm(h.client(ACME), `${tampered.pathname}${tampered.search}`, { password: NEW, password_confirmation: NEW });
    expect(r.status).toBe(403);
    expect(alertText(r.text)).toBe('署名が無効です。リンクが改変されている可能性があります。メールのリンクをそのまま開いてください。');
    expect(r.text).not.toMatch(REGISTER_FORM);
    const weak = await postForm(h.client(ACME), `${link.pathname}${link.search}`, { password: 'password', password_confirmation: 'password' });
    expect(weak.status).toBe(422);
    expect(weak.text).toContain('method="post"');
    expect(weak.text).toMatch(/id="register-password-error"/);
  });

  it('refuses a form from another origin: not registered', async () => {
    const link = await invite();
    const r = await postForm(h.client(ACME), `${link.pathname}${link.search}`, { password: NEW, password_confirmation: NEW }, 'http://evil.example');
    expect(r.status).toBe(403);
    const u = (await h.deps.db.select().from(users).where(eq(users.email, 'new@acme.test')).get())!;
    expect(u.passwordHash).toBeNull();
  });
});

describe('the language switch without JavaScript (decision 0033)', () => {
  it('is a form on the public pages; its post sets the language cookie and goes back to the page', async () => {
    const b = h.client(ACME);
    const page = await b.get('/accounts/forgot');
    expect(page.text).toContain('action="/accounts/language"');
    expect(page.text).toMatch(/<button type="submit" value="en"[^>]*name="lang"/);
    const r = await b.request('POST', '/accounts/language', {
      body: 'lang=en',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: b.origin, referer: `${b.origin}/accounts/register/a%40b.test?expires=1&id=2&signature=ab` },
    });
    expect(r.status).toBe(303);
    expect(location(r)).toBe('/accounts/register/a%40b.test?expires=1&id=2&signature=ab');
    expect(r.headers.getSetCookie().find((c) => c.startsWith('portal_locale='))).toMatch(/^portal_locale=en;/);
    const english = await b.get('/accounts/forgot', { headers: { cookie: 'portal_locale=en' } });
    expect(english.text).toContain('<html lang="en"');
  });

  it('goes to login from another site or without a referrer, and refuses another origin', async () => {
    const b = h.client(ACME);
    const post = (headers: Record<string, string>) =>
      b.request('POST', '/accounts/language', { body: 'lang=ja', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: b.origin, ...headers } });
    expect(location(await post({ referer: 'https://evil.example/accounts/forgot' }))).toBe('/accounts/login');
    expect(location(await post({}))).toBe('/accounts/login');
    expect((await postForm(b, '/accounts/language', { lang: 'en' }, 'https://evil.example')).status).toBe(403);
  });
});
