// A person's whole way in, on the Deno entry: an admin adds them, the invitation arrives over SMTP,
// they register through its signed link, turn on an authenticator app, and sign in again with a
// code from it. The client address comes from Deno's connection info (or TRUST_PROXY's header).
import { readdirSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { totpAt } from '../support/totp';
import { Browser, type HostClient } from '../workers/support/client';
import { waitForMail } from '../workers/support/mail';

const port = inject('workerPort');
const PW = 'Portal-Demo-2026!';
const NEW_PW = 'Deno-Journey-2026?';
const EMAIL = 'deno.journey@acme.test';

describe('a new person on Deno: invitation, registration, two-factor sign-in', () => {
  it('registers from the mailed link, sets up the authenticator, and signs in with a code', async () => {
    const mailDir = inject('mailDir');
    const before = new Set(readdirSync(mailDir));
    const admin = new Browser(port).on('acme.localhost');
    expect((await admin.login('admin@acme.test', PW)).body.message).toBe('success');
    const added = await admin.post('/accounts/api/admin/users', {
      name: 'Deno 太郎',
      email: EMAIL,
      department_id: null,
      is_admin: false,
      allowedApps: ['meishi'],
      additionalDepartmentIds: [],
      saml_name_id: null,
      is_sso_enabled: false,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);

    // The invitation, decoded from what the receiver got; its link is signed for this person.
    const mail = await waitForMail(mailDir, EMAIL, before);
    const href = /https?:\/\/\S+\/accounts\/register\/\S+/.exec(mail.text)?.[0];
    expect(href).toBeDefined();
    const link = new URL(href!);
    const person = new Browser(port).on('acme.localhost');
    const page = await person.get(link.pathname + link.search);
    expect(page.status).toBe(200);
    // What the register page's island posts, from the link it was opened with.
    const q = new URLSearchParams({ expires: link.searchParams.get('expires')!, signature: link.searchParams.get('signature')!, email: EMAIL });
    const registered = await person.post(`/accounts/api/users/register/${link.searchParams.get('id')}?${q}`, {
      password: NEW_PW,
      password_confirmation: NEW_PW,
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);

    // Two-factor setup needs the password again, then a code from the shown key.
    const b = new Browser(port).on('acme.localhost');
    expect((await b.login(EMAIL, NEW_PW)).body.message).toBe('success');
    expect((await b.post('/accounts/api/password/verify', { password: NEW_PW, redirect: 'twofa' })).body).toEqual({ message: 'verified' });
    const setup = await b.post('/accounts/api/twofa/setup', { method: 'app' });
    expect(setup.status).toBe(200);
    const secret = String(setup.body.manualCode).replace(/ /g, '');
    expect((await b.post('/accounts/api/twofa/app', { otp: await totpAt(secret, Date.now()) })).body).toEqual({ message: 'success', twofa_method: 'app' });

    // A new browser: the password alone is not enough; the code finishes the sign-in.
    const again = new Browser(port).on('acme.localhost');
    expect((await again.login(EMAIL, NEW_PW)).body.message).toBe('enter-otp');
    expect((await again.get('/accounts/api/user')).status).toBe(401);
    // The code of the next step: the setup just used this step's code, which is single use.
    const verified = await again.post('/accounts/api/otp/verify', { otp: await totpAt(secret, Date.now(), 1), rememberDevice: false });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const me = await again.get('/accounts/api/user');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: EMAIL, twofa_method: 'app', isTwofaEnabled: true });
  });

  it('records the address the connection came from, and a configured proxy header over it', async () => {
    const address = async (b: HostClient) => {
      const r = await b.get('/accounts/api/session-devices');
      expect(r.status).toBe(200);
      return r.body.currentSession.ipAddress as string;
    };
    const direct = new Browser(port).on('acme.localhost');
    expect((await direct.login('user@acme.test', PW)).body.message).toBe('success');
    expect(await address(direct)).toBe('127.0.0.1');
    // From another address (TRUST_PROXY's header): a new device, confirmed with the mailed code.
    const mailDir = inject('mailDir');
    const before = new Set(readdirSync(mailDir));
    const ip = { headers: { 'cf-connecting-ip': '203.0.113.77' } };
    const proxied = new Browser(port).on('acme.localhost');
    expect((await proxied.post('/accounts/api/v2/login', { email: 'user@acme.test', password: PW, remember: false }, ip)).body.message).toBe('enter-additional-challenge');
    const code = /\b(\d{6})\b/.exec((await waitForMail(mailDir, 'user@acme.test', before)).text)![1]!;
    expect((await proxied.post('/accounts/api/additional-challenge/verify', { otp: code }, ip)).status).toBe(200);
    expect(await address(proxied)).toBe('203.0.113.77');
  });
});
