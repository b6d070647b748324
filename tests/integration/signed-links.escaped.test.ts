// Signed links whose query a mail client HTML-escaped (issue 21 part 6, decision 0037):
// `/accounts/register/<email>?expires=E&amp;id=I&amp;signature=S` arrives as the parameters
// `expires`, `amp;id`, `amp;signature`. Register and verify, on the page (GET and the no-JS post)
// and in the API call, read every parameter under either name; a tampered value still fails, and a
// parameter given both ways with different values is refused whichever of them is genuine.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tenants, tenantUsers, users } from '../../src/db/schema';
import { sendInvitation } from '../../src/domain/account/registration';
import { createHarness, type Harness, type TestClient, type TestResponse } from '../support/harness';
import { lastMail, linkIn } from '../support/mail';
import { islandProps } from '../support/island-props';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const PW = 'Quiet-Harbor-Lantern-88';
const INVALID = '署名が無効です。リンクが改変されている可能性があります。メールのリンクをそのまま開いてください。';

async function invite(email = 'new@acme.test') {
  const now = h.clock.now();
  const [u] = await h.deps.db.insert(users).values({ name: '新人 花子', email, createdAt: now, updatedAt: now }).returning();
  await h.deps.db.insert(tenantUsers).values({ tenantId: 1, userId: u!.id, meishiAccessGrantedAt: now, invitedAt: now, createdAt: now, updatedAt: now });
  const tenant = (await h.deps.db.select().from(tenants).where(eq(tenants.id, 1)).get())!;
  await sendInvitation(h.deps, u!, tenant);
  return { user: u!, url: linkIn((await lastMail(h, email)).body) };
}

async function verificationLink() {
  await h.deps.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, 2));
  const b = h.client(ACME);
  await b.login('user@acme.test');
  expect((await b.post('/accounts/api/verification-mail/2')).body).toEqual({ message: 'email_sent' });
  return linkIn((await lastMail(h, 'user@acme.test')).body);
}

/** The link as a mail client that escaped its HTML leaves it: every "&" of the query is "&amp;". */
const escaped = (url: URL) => `${url.pathname}${url.search.replaceAll('&', '&amp;')}`;
const plain = (url: URL) => `${url.pathname}${url.search}`;
const param = (url: URL, name: string) => url.searchParams.get(name)!;
/** Another valid-looking signature (64 hex digits), the first digit changed. */
const altered = (sig: string) => `${sig[0] === 'a' ? 'b' : 'a'}${sig.slice(1)}`;

/** The API call an island makes, with its query written as `query` gives it. */
const apiPath = (kind: 'register' | 'verify', url: URL, query: string) => `/accounts/api/users/${kind}/${param(url, 'id')}?${query}`;
const emailOf = (url: URL) => encodeURIComponent(decodeURIComponent(url.pathname.split('/').pop()!));

const alertText = (html: string) => /role="alert"[^>]*>([^<]*)</.exec(html)?.[1];
function postForm(b: TestClient, path: string, fields: Record<string, string>): Promise<TestResponse> {
  return b.request('POST', path, { body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: b.origin } });
}
const passwordHashOf = async (id: number) => (await h.deps.db.select().from(users).where(eq(users.id, id)).get())!.passwordHash;
const verifiedAt = async () => (await h.deps.db.select().from(users).where(eq(users.id, 2)).get())!.emailVerifiedAt;

describe('registration link escaped by a mail client', () => {
  it('the page reads every parameter under its amp; name: the same form and props as the plain link', async () => {
    const { url } = await invite();
    expect(escaped(url)).toContain('&amp;id=');
    const asSent = await h.client(ACME).get(plain(url));
    const r = await h.client(ACME).get(escaped(url));
    expect(r.status).toBe(200);
    const props = islandProps(r.text, 'RegisterForm');
    expect(props).toEqual(islandProps(asSent.text, 'RegisterForm'));
    expect(props).toMatchObject({ id: param(url, 'id'), expires: param(url, 'expires'), signature: param(url, 'signature'), expired: false });
    expect(r.text).toContain('method="post"');
    expect(alertText(r.text)).toBeUndefined();
  });

  it('the no-JS form posted to the escaped address registers', async () => {
    const { url, user } = await invite();
    const r = await postForm(h.client(ACME), escaped(url), { password: PW, password_confirmation: PW });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/meishi/');
    expect(await passwordHashOf(user.id)).not.toBeNull();
  });

  it('the API call registers with its parameters plain, partly escaped or all escaped', async () => {
    for (const [i, query] of [
      (u: URL) => `expires=${param(u, 'expires')}&signature=${param(u, 'signature')}&email=${emailOf(u)}`,
      (u: URL) => `expires=${param(u, 'expires')}&amp;signature=${param(u, 'signature')}&amp;email=${emailOf(u)}`,
      (u: URL) => `amp;expires=${param(u, 'expires')}&amp;signature=${param(u, 'signature')}&email=${emailOf(u)}`,
    ].entries()) {
      const { url, user } = await invite(`new${i}@acme.test`);
      const r = await h.client(ACME).post(apiPath('register', url, query(url)), { password: PW, password_confirmation: PW });
      expect(r.status, query(url)).toBe(200);
      expect(r.body.user.email).toBe(`new${i}@acme.test`);
      expect(await passwordHashOf(user.id)).not.toBeNull();
    }
  });

  it('an escaped link is as strict as a plain one: altered signature, expires or id is "Invalid signature."', async () => {
    const { url, user } = await invite();
    const variants = [
      escaped(url).replace(/signature=([0-9a-f]{64})/, (_m, s: string) => `signature=${altered(s)}`),
      escaped(url).replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 86_400}`),
      escaped(url).replace(/amp;id=(\d+)/, 'amp;id=1'),
      escaped(url).replace(/&amp;signature=[0-9a-f]+/, ''),
    ];
    for (const path of variants) {
      const page = await h.client(ACME).get(path);
      expect(page.status, path).toBe(403);
      expect(alertText(page.text), path).toBe(INVALID);
      const posted = await postForm(h.client(ACME), path, { password: PW, password_confirmation: PW });
      expect(posted.status, path).toBe(403);
    }
    const sig = param(url, 'signature');
    const api = await h.client(ACME).post(apiPath('register', url, `expires=${param(url, 'expires')}&amp;signature=${altered(sig)}&email=${emailOf(url)}`), { password: PW, password_confirmation: PW });
    expect(api.status).toBe(403);
    expect(api.body).toEqual({ message: 'Invalid signature.' });
    expect(await passwordHashOf(user.id)).toBeNull();
  });

  it('an expired escaped link says so (its amp;expires is the one read)', async () => {
    const { url } = await invite();
    h.clock.advance(8 * 86_400_000);
    const onlyEscaped = `${url.pathname}?amp;${url.search.slice(1).replaceAll('&', '&amp;')}`;
    for (const path of [escaped(url), onlyEscaped]) {
      const r = await h.client(ACME).get(path);
      expect(r.status, path).toBe(410);
      expect(islandProps(r.text, 'RegisterForm').expired).toBe(true);
    }
  });

  it('a parameter given plain and as amp; with different values is refused, whichever is genuine; the same value twice is one', async () => {
    const { url, user } = await invite();
    const sig = param(url, 'signature');
    const base = `${url.pathname}?expires=${param(url, 'expires')}&id=${param(url, 'id')}`;
    const conflicts = [
      `${base}&signature=${sig}&amp;signature=${altered(sig)}`,
      `${base}&signature=${altered(sig)}&amp;signature=${sig}`,
      `${base}&signature=${sig}&signature=${altered(sig)}`,
      `${base}&amp;id=2&signature=${sig}`,
    ];
    for (const path of conflicts) {
      const page = await h.client(ACME).get(path);
      expect(page.status, path).toBe(403);
      expect(alertText(page.text), path).toBe(INVALID);
      expect((await postForm(h.client(ACME), path, { password: PW, password_confirmation: PW })).status, path).toBe(403);
    }
    const api = (q: string) => h.client(ACME).post(apiPath('register', url, `expires=${param(url, 'expires')}&email=${emailOf(url)}&${q}`), { password: PW, password_confirmation: PW });
    expect((await api(`signature=${sig}&amp;signature=${altered(sig)}`)).body).toEqual({ message: 'Invalid signature.' });
    expect((await api(`signature=${altered(sig)}&amp;signature=${sig}`)).body).toEqual({ message: 'Invalid signature.' });
    expect(await passwordHashOf(user.id)).toBeNull();
    // The same value plain and escaped (a mail client that kept one "&" and escaped the next) is fine.
    const r = await api(`signature=${sig}&amp;signature=${sig}`);
    expect(r.status).toBe(200);
    expect(await passwordHashOf(user.id)).not.toBeNull();
  });
});

describe('verification link escaped by a mail client', () => {
  it('the page hands the island the parameters read under their amp; names', async () => {
    const url = await verificationLink();
    const r = await h.client(ACME).get(escaped(url));
    expect(r.status).toBe(200);
    expect(islandProps(r.text, 'VerifyEmail')).toMatchObject({ id: '2', email: 'user@acme.test', expires: param(url, 'expires'), signature: param(url, 'signature'), expired: false });
    expect(islandProps(r.text, 'VerifyEmail')).toEqual(islandProps((await h.client(ACME).get(plain(url))).text, 'VerifyEmail'));
  });

  it('the API call verifies with escaped parameters; an altered or conflicting one is "Invalid signature."', async () => {
    const url = await verificationLink();
    const sig = param(url, 'signature');
    const call = (q: string) => h.client(ACME).post(apiPath('verify', url, q));
    expect((await call(`expires=${param(url, 'expires')}&amp;signature=${altered(sig)}`)).body).toEqual({ message: 'Invalid signature.' });
    expect((await call(`expires=${param(url, 'expires')}&signature=${sig}&amp;signature=${altered(sig)}`)).body).toEqual({ message: 'Invalid signature.' });
    expect((await call(`expires=${param(url, 'expires')}&amp;expires=${Number(param(url, 'expires')) + 1}&signature=${sig}`)).body).toEqual({ message: 'Invalid signature.' });
    expect(await verifiedAt()).toBeNull();
    expect((await call(`amp;expires=${param(url, 'expires')}&amp;signature=${sig}&amp;email=user%40acme.test`)).body).toEqual({ message: 'verified' });
    expect(await verifiedAt()).not.toBeNull();
  });

  it('the plain API call still verifies', async () => {
    const url = await verificationLink();
    expect((await h.client(ACME).post(apiPath('verify', url, `expires=${param(url, 'expires')}&signature=${param(url, 'signature')}`))).body).toEqual({ message: 'verified' });
  });
});
