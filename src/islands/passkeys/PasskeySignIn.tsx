// "Sign in with a passkey" on the login form (decision 0039), loaded lazily by LoginForm after it
// hydrates (the login page's own script stays within its budget). Two ways, one answer:
//  - the browser's autofill (conditional mediation): started at once, it offers the person's
//    passkeys in the email field's suggestions (the field says `autocomplete="username webauthn"`);
//    its challenge is renewed before the server's five minutes end;
//  - the button: the browser's dialog, no email typed (the passkey says who it is).
// The server's answer is the login's (a session, or a refusal with its code word); LoginForm
// goes on with it as after the password.
import { useEffect, useRef, useState } from 'react';
import { api, type ApiResult } from '../../shared/api';
import type { T } from '../../shared/i18n';
import { buttonClass } from '../kit/Button';
import { askPasskey, browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, WebAuthnAbortService } from './ceremony';
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';

/** A little less than the server's five minutes: the autofill always holds a live challenge. */
const RENEW_MS = 4.5 * 60_000;

export interface PasskeySignInProps {
  t: T;
  basePath: string;
  /** "Keep me logged in", as the form shows it. */
  remember: boolean;
  disabled: boolean;
  /** The answer of POST passkeys/sign-in/verify (or of the options call, when refused). */
  onAnswer: (r: ApiResult) => void;
  /** Something to say that is not a server's answer (the person closed the dialog). */
  onMessage: (text: string) => void;
}

export default function PasskeySignIn(p: PasskeySignInProps) {
  const [supported, setSupported] = useState(false);
  const [busy, setBusyState] = useState(false);
  const live = useRef(true);
  const working = useRef(false);
  const setBusy = (b: boolean) => {
    working.current = b;
    setBusyState(b);
  };
  const latest = useRef(p);
  latest.current = p;

  const verify = async (response: AuthenticationResponseJSON) => {
    setBusy(true);
    const r = await api(p.basePath, 'POST', 'passkeys/sign-in/verify', { response, remember: latest.current.remember });
    setBusy(false);
    latest.current.onAnswer(r);
    // Refused: a new challenge for the next try (each is used once).
    if (!r.ok) void autofill();
  };

  const autofill = async () => {
    // Never while the dialog of the button is open: starting one ends the other.
    if (!live.current || working.current || !(await browserSupportsWebAuthnAutofill())) return;
    const c = await askPasskey(p.basePath, 'passkeys/sign-in/options', true);
    // Anything but an answer is quiet here: the button still works, and an abort is ours.
    if (c.kind === 'answer' && live.current) await verify(c.response);
  };

  useEffect(() => {
    if (!browserSupportsWebAuthn()) return;
    setSupported(true);
    void autofill();
    const renew = setInterval(() => void autofill(), RENEW_MS);
    return () => {
      live.current = false;
      clearInterval(renew);
      WebAuthnAbortService.cancelCeremony();
    };
  }, []);

  const onClick = async () => {
    setBusy(true);
    // Starting this ceremony ends the autofill's (one at a time in a browser).
    const c = await askPasskey(p.basePath, 'passkeys/sign-in/options');
    if (c.kind === 'answer') return verify(c.response);
    setBusy(false);
    if (c.kind === 'refused') latest.current.onAnswer(c.r);
    else latest.current.onMessage(p.t(c.reason === 'unsupported' ? 'passkeys.signIn.unsupported' : 'passkeys.signIn.cancelled'));
    void autofill();
  };

  if (!supported) return null;
  return (
    <button type="button" className={buttonClass('secondary', { block: true })} disabled={busy || p.disabled} onClick={() => void onClick()} data-testid="passkey-sign-in">
      {p.t('passkeys.signIn.button')}
    </button>
  );
}
