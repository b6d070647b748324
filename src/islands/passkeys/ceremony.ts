// The browser's side of a passkey ceremony (decision 0039): ask the server for the options (it
// makes and keeps the challenge), hand them to the browser's own dialog through
// @simplewebauthn/browser, and send the answer back. The sign-in pages load this lazily: most
// visits never use it.
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { api, type ApiResult } from '../../shared/api';

export { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, WebAuthnAbortService };

/** How a ceremony ended: the answer, the server refused (its answer), or the person did not finish. */
export type Ceremony<R> = { kind: 'answer'; response: R } | { kind: 'refused'; r: ApiResult } | { kind: 'cancelled'; reason: 'aborted' | 'not-allowed' | 'already-registered' | 'unsupported' };

function cancelled(e: unknown): Ceremony<never> {
  const name = e instanceof Error ? e.name : '';
  const code = (e as { code?: string } | null)?.code;
  if (code === 'ERROR_CEREMONY_ABORTED' || name === 'AbortError') return { kind: 'cancelled', reason: 'aborted' };
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') return { kind: 'cancelled', reason: 'already-registered' };
  if (name === 'NotSupportedError' || name === 'SecurityError') return { kind: 'cancelled', reason: 'unsupported' };
  return { kind: 'cancelled', reason: 'not-allowed' };
}

/** navigator.credentials.get() with the options of `optionsPath` (POST); `autofill`: conditional mediation. */
export async function askPasskey(basePath: string, optionsPath: string, autofill = false): Promise<Ceremony<AuthenticationResponseJSON>> {
  const o = await api<PublicKeyCredentialRequestOptionsJSON>(basePath, 'POST', optionsPath);
  if (!o.ok) return { kind: 'refused', r: o };
  try {
    return { kind: 'answer', response: await startAuthentication({ optionsJSON: o.data as PublicKeyCredentialRequestOptionsJSON, useBrowserAutofill: autofill }) };
  } catch (e) {
    return cancelled(e);
  }
}

/** navigator.credentials.create() with the options of `optionsPath` (POST). */
export async function makePasskey(basePath: string, optionsPath: string): Promise<Ceremony<RegistrationResponseJSON>> {
  const o = await api<PublicKeyCredentialCreationOptionsJSON>(basePath, 'POST', optionsPath);
  if (!o.ok) return { kind: 'refused', r: o };
  try {
    return { kind: 'answer', response: await startRegistration({ optionsJSON: o.data as PublicKeyCredentialCreationOptionsJSON }) };
  } catch (e) {
    return cancelled(e);
  }
}
