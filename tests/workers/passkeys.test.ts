// The passkey ceremonies on the server runtimes (issue 24, decision 0039): a passkey added and
// used to sign in, with @simplewebauthn/server verifying inside workerd (and, in the deno
// project, inside Deno), against the local D1 or libSQL file. The authenticator is the software
// one of the integration tests (tests/support/authenticator.ts), in the test process.
import { describe, expect, inject, it } from 'vitest';
import { assert, createCredential } from '../support/authenticator';
import { Browser } from './support/client';

const port = inject('workerPort');
const PASSWORD = 'Portal-Demo-2026!';

describe('passkeys on the server runtime', () => {
  it('adds a passkey after the password, signs in with it once; a replayed answer is refused', async () => {
    // Not admin@initech.test: limits.test.ts spends that account's password re-entry budget.
    const own = new Browser(port).on('acme.localhost');
    expect((await own.login('multi@example.test', PASSWORD)).body.message).toBe('success');
    expect((await own.post('/accounts/api/password/verify', { password: PASSWORD })).body).toEqual({ message: 'verified' });
    const creation = await own.post('/accounts/api/passkeys/options');
    expect(creation.status).toBe(200);
    expect(creation.body.rp.id).toBe('acme.localhost');
    const { credential, response } = createCredential(creation.body, { origin: own.origin });
    const added = await own.post('/accounts/api/passkeys', { response });
    expect(added.status).toBe(201);

    const fresh = new Browser(port).on('acme.localhost');
    const request = await fresh.post('/accounts/api/passkeys/sign-in/options');
    expect(request.status).toBe(200);
    const answer = assert(credential, request.body, { origin: fresh.origin });
    const signedIn = await fresh.post('/accounts/api/passkeys/sign-in/verify', { response: answer });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.email).toBe('multi@example.test');
    expect((await fresh.get('/accounts/api/user')).status).toBe(200);
    expect((await fresh.post('/accounts/api/passkeys/sign-in/verify', { response: answer })).body).toEqual({ message: 'passkey-invalid' });

    // Removed again, so a second run on the same database starts alike.
    expect((await own.request('DELETE', `/accounts/api/passkeys/${added.body.passkey.id}`, { json: { password: PASSWORD } })).body).toEqual({ message: 'success' });
  });
});
