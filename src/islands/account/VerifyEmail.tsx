// Email verification (spec 01 "Registration and verification pages", section 8 "Email
// verification"): the page confirms the address on load (POST users/verify/{id}?expires&signature)
// and says how it went. Already verified goes to login; an expired or altered link says so; any
// other failure is "something went wrong". The result stays on the page (it is the page's purpose).
import { useEffect, useRef, useState } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';
import { buttonClass } from '../kit/Button';

export interface VerifyEmailProps {
  lang: Lang;
  basePath: string;
  id: string;
  /** The address in the link's path (the server checks the signature with it). */
  email: string;
  expires: string;
  signature: string;
  signedIn: boolean;
  /** The server found the link expired already when it rendered the page. */
  expired: boolean;
}

type State = 'working' | 'verified' | 'expired' | 'invalid' | 'failed';

export default function VerifyEmail(p: VerifyEmailProps) {
  const t = getT(p.lang);
  const [state, setState] = useState<State>(p.expired ? 'expired' : 'working');
  const messageRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (state !== 'working') return;
    const q = new URLSearchParams({ expires: p.expires, signature: p.signature, email: p.email });
    void api(p.basePath, 'POST', `users/verify/${encodeURIComponent(p.id)}?${q}`).then((r) => {
      if (r.ok && r.data.message === 'verified') return setState('verified');
      if (r.data.message === 'already-verified') return window.location.assign(`${p.basePath}/login?notice=already-verified`);
      if (r.data.message === 'link-expired') return setState('expired');
      if (r.data.message === 'Invalid signature.') return setState('invalid');
      setState('failed');
    });
  }, []);
  useEffect(() => {
    if (state !== 'working') messageRef.current?.focus();
  }, [state]);

  if (state === 'working') {
    return (
      <p role="status" className="mt-0 text-center text-slate-700" data-testid="verify-working">
        {t('verify.working')}
      </p>
    );
  }
  const ok = state === 'verified';
  const text = { verified: 'verify.verified', expired: 'verify.linkExpired', invalid: 'verify.invalidSignature', failed: 'verify.failed' }[state];
  return (
    <div>
      <p
        ref={messageRef}
        tabIndex={-1}
        role={ok ? 'status' : 'alert'}
        data-testid={ok ? 'verify-success' : 'verify-error'}
        className={`mt-0 rounded border p-3 ${ok ? 'border-green-700 bg-green-50 text-green-900' : 'border-red-700 bg-red-50 text-red-900'}`}
      >
        {t(text)}
      </p>
      <a href={`${p.basePath}/${p.signedIn ? 'my-account' : 'login'}`} className={buttonClass('primary', { block: true, className: 'mt-4 block text-center no-underline' })}>
        {t(p.signedIn ? 'verify.continueToAccount' : 'verify.continueToLogin')}
      </a>
    </div>
  );
}
