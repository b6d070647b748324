// Issue 21 root 4, decision 0035: lock-outs never lock the person out of their own browser. The
// browser is recognised on every host of the portal through a signed cookie on PORTAL_DOMAIN
// (the harness's clients model Domain cookies as a browser does on a real domain), and completed
// sign-ins give their share of the hourly pending-login cap back.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOGIN_LIMITS } from '../../src/domain/sign-in/password-login';
import { CHALLENGES_PER_HOUR } from '../../src/domain/sign-in/pending-logins';
import { knownBrowserValue } from '../../src/domain/sign-in/known-browser';
import { users } from '../../src/db/schema';
import { createHarness, type Harness } from '../support/harness';
import { mailsTo } from '../support/mail';
import { DEMO_TOTP_SECRET, totpAt } from '../support/totp';

const ACME = 'acme.localhost:8787';
const GLOBEX = 'globex-jp.localhost:8787';
const MAIN = 'localhost:8787';
const EMAIL = 'multi@example.test';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const parallel = <T>(n: number, f: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));

/** Someone holding only a guess spreads failures over many addresses until the account bucket is full. */
async function lockForUnknownBrowsers(email: string) {
  await parallel(LOGIN_LIMITS.account.max + 5, (i) => h.client(ACME, { ip: `198.51.100.${i + 1}`, otherBrowser: true }).login(email, 'guess'));
  expect((await h.client(MAIN, { ip: '192.0.2.200', otherBrowser: true }).login(email)).status).toBe(429);
}

describe('the person\'s own browser on every host', () => {
  it('signed in once on Acme, the same browser still signs in on the main domain and on Globex while the account is locked for others', async () => {
    const acme = h.client(ACME);
    expect((await acme.login(EMAIL)).body.message).toBe('success');
    await acme.post('/accounts/api/logout');
    await lockForUnknownBrowsers(EMAIL);
    // Same browser (it shares the Domain cookies), hosts it has never signed in on.
    const main = h.client(MAIN);
    const r = await main.login(EMAIL);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('success');
    const globex = h.client(GLOBEX);
    expect((await globex.login(EMAIL)).body.message).toBe('success');
  });

  it('from a new address the recognised browser is not asked for the emailed new-device code', async () => {
    const acme = h.client(ACME);
    expect((await acme.login(EMAIL)).body.message).toBe('success');
    const before = (await mailsTo(h, EMAIL)).length;
    const elsewhere = h.client(MAIN, { ip: '198.51.100.77' });
    expect((await elsewhere.login(EMAIL)).body.message).toBe('success');
    // A browser of its own from that address is.
    expect((await h.client(MAIN, { ip: '192.0.2.78', otherBrowser: true }).login(EMAIL)).body.message).toBe('enter-additional-challenge');
    expect((await mailsTo(h, EMAIL)).length).toBe(before + 1);
  });

  it('a cookie signed for another account, or forged, makes no browser known for this one', async () => {
    const mine = h.client(ACME);
    expect((await mine.login(EMAIL)).body.message).toBe('success');
    await lockForUnknownBrowsers(EMAIL);
    const victim = (await h.deps.db.select().from(users).where(eq(users.email, EMAIL)).get())!;
    // The attacker's own browser, with a value they made up for the victim's account...
    const forged = h.client(MAIN, { ip: '192.0.2.201', otherBrowser: true });
    forged.cookies.set('portal_known_browser', `${victim.id}.${'A'.repeat(43)}.k1.${'B'.repeat(43)}`);
    expect((await forged.login(EMAIL)).status).toBe(429);
    // ...or the genuine one of their own account, with the victim's id swapped in...
    const attacker = h.client('initech.localhost:8787', { ip: '192.0.2.202', otherBrowser: true });
    expect((await attacker.login('admin@initech.test')).body.message).toBe('success');
    const own = attacker.domainJar.get('localhost')!.get('portal_known_browser')!;
    expect(own).toMatch(/^6\./);
    forged.cookies.set('portal_known_browser', own.replace(/^6\./, `${victim.id}.`));
    expect((await forged.login(EMAIL)).status).toBe(429);
    // ...or one signed with another key.
    forged.cookies.set('portal_known_browser', knownBrowserValue('not-the-portal-key-'.repeat(3), victim.id, 'C'.repeat(43)));
    expect((await forged.login(EMAIL)).status).toBe(429);
    // The person's own browser signs in.
    expect((await h.client(MAIN).login(EMAIL)).body.message).toBe('success');
  });

  it('the cookie is set on the portal domain, HttpOnly, and names no secret of the session', async () => {
    const r = await h.client(ACME).login(EMAIL);
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith('portal_known_browser='))!;
    expect(cookie).toMatch(/Domain=localhost/i);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const https = await h.client('acme.localhost', { https: true, otherBrowser: true }).login(EMAIL);
    expect(https.headers.getSetCookie().some((c) => c.startsWith('__Secure-portal_known_browser=') && /Secure/.test(c))).toBe(true);
  });
});

describe('the hourly pending-login cap', () => {
  it(`a person with an authenticator signs in ${CHALLENGES_PER_HOUR + 2} times in an hour: completed sign-ins give their share back`, async () => {
    const b = h.client(ACME);
    for (let i = 0; i < CHALLENGES_PER_HOUR + 2; i++) {
      h.clock.advance(31_000);
      expect((await b.login('totp@acme.test')).body.message, `sign-in ${i + 1}`).toBe('enter-otp');
      const done = await b.post('/accounts/api/otp/verify', { otp: await totpAt(DEMO_TOTP_SECRET, h.clock.now()), rememberDevice: false });
      expect(done.body.message, `sign-in ${i + 1}`).toBe('success');
      await b.post('/accounts/api/logout');
    }
  });

  it('unfinished pending logins from other browsers still hit the cap, and never use up the person\'s own browser\'s', async () => {
    const mine = h.client(ACME);
    expect((await mine.login('totp@acme.test')).body.message).toBe('enter-otp');
    expect((await mine.post('/accounts/api/otp/verify', { otp: await totpAt(DEMO_TOTP_SECRET, h.clock.now()), rememberDevice: false })).body.message).toBe('success');
    await mine.post('/accounts/api/logout');
    // Someone holding the password starts pending logins they cannot finish.
    const rs = await parallel(CHALLENGES_PER_HOUR + 5, (i) => h.client(ACME, { ip: `198.51.${i}.9`, otherBrowser: true }).login('totp@acme.test'));
    expect(rs.filter((r) => r.body.message === 'enter-otp').length).toBe(CHALLENGES_PER_HOUR);
    expect(rs.filter((r) => r.status === 429).length).toBe(5);
    // The person's own browser has a bucket of its own.
    expect((await mine.login('totp@acme.test')).body.message).toBe('enter-otp');
  });
});
