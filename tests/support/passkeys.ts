// Passkey steps the integration tests share (decision 0039): add one in the account, sign in
// with one. The authenticator is tests/support/authenticator.ts (real ES256 signatures).
import { expect } from 'vitest';
import type { TestClient, TestResponse } from './harness';
import { assert, createCredential, type AuthenticatorOptions, type SoftCredential } from './authenticator';

export const PW = 'Portal-Demo-2026!';
export const ACME = 'acme.localhost:8787';
export const GLOBEX = 'globex.localhost:8787';
export const MAIN = 'localhost:8787';

/** Confirms the password (the account's security changes need it) and adds a passkey. */
export async function addPasskey(b: TestClient, o: Partial<AuthenticatorOptions> = {}): Promise<{ credential: SoftCredential; r: TestResponse }> {
  expect((await b.post('/accounts/api/password/verify', { password: PW })).body).toEqual({ message: 'verified' });
  const options = await b.post('/accounts/api/passkeys/options');
  expect(options.status).toBe(200);
  const { credential, response } = createCredential(options.body, { origin: b.origin, ...o });
  return { credential, r: await b.post('/accounts/api/passkeys', { response }) };
}

/** Signs `b` in with the passkey (the button: discoverable, no email). */
export async function passkeySignIn(b: TestClient, credential: SoftCredential, o: Partial<AuthenticatorOptions> & { keepCounter?: boolean; omitUserHandle?: boolean } = {}, remember = false) {
  const options = await b.post('/accounts/api/passkeys/sign-in/options');
  expect(options.status).toBe(200);
  return b.post('/accounts/api/passkeys/sign-in/verify', { response: assert(credential, options.body, { origin: b.origin, ...o }), remember });
}
