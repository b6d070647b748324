// Reset password (spec 01 "Reset password screen", section 4 "Reset", section 8 "Reset"): the
// page checks the token and loads the policy for the address before it renders (so there is
// nothing to wait for, and no progress bar), then the form. On success the user is signed in: a
// 3-second countdown, then the redirection step. Without JavaScript the form posts to the reset
// page, which signs in and redirects, or shows the form again with the error
// (src/routes/account/reset-page.tsx).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';
import type { PasswordPolicy } from '../../shared/account/password-policy';
import type { AppKey, RedirectionInput } from '../../shared/sign-in/redirection';
import { pendingStepUrl, redirectionFor, type SignedInUser } from '../../shared/sign-in/signed-in';
import { useHydrated } from '../kit/hydrated';
import { NewPasswordFields, useNewPassword } from './PasswordFields';
import Redirection from '../sign-in/Redirection';
import { buttonClass } from '../kit/Button';
import { WhyHint, whyDisabled } from '../kit/why-hint';

export interface ResetFormProps {
  lang: Lang;
  basePath: string;
  email: string;
  token: string;
  /** The token was live when the page was made; its policy, or null when it was not. */
  policy: PasswordPolicy | null;
  hostTenantId: number | null;
  appUrls: Record<AppKey, string>;
  /** A posted form's refusal, in words. */
  initialError?: string | null;
}

/** Seconds between the success message and the redirection step (spec 01 section 9). */
export const RESET_COUNTDOWN = 3;

type Phase = 'invalid' | 'form' | 'done';

export default function ResetForm(p: ResetFormProps) {
  const t = getT(p.lang);
  const hydrated = useHydrated();
  const [phase, setPhase] = useState<Phase>(p.policy ? 'form' : 'invalid');
  const policy = p.policy;
  const next = useNewPassword(policy, p.email);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(p.initialError ?? null);
  const [countdown, setCountdown] = useState(RESET_COUNTDOWN);
  const [redirection, setRedirection] = useState<RedirectionInput | null>(null);
  const [signedIn, setSignedIn] = useState<RedirectionInput | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (phase === 'form') passwordRef.current?.focus();
    if (phase === 'invalid' || phase === 'done') messageRef.current?.focus();
  }, [phase]);
  useEffect(() => {
    if (phase !== 'done' || countdown <= 0) return;
    const id = setTimeout(() => setCountdown((n) => n - 1), 1000);
    return () => clearTimeout(id);
  }, [phase, countdown]);
  useEffect(() => {
    if (phase === 'done' && countdown <= 0 && signedIn) setRedirection(signedIn);
  }, [phase, countdown, signedIn]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!next.valid || busy) return;
    setBusy(true);
    setError(null);
    const r = await api<{ user?: SignedInUser | null; requires_login?: boolean; errors?: Record<string, string[]>; duration?: number }>(
      p.basePath,
      'POST',
      'password/reset',
      { email: p.email, password: next.password, password_confirmation: next.confirmation, token: p.token },
    );
    setBusy(false);
    // Their second factor, or a 2FA setup the tenant enforces, comes next.
    const step = r.ok ? pendingStepUrl(r.data.message, p.basePath) : null;
    if (step) return window.location.assign(step);
    if (r.ok && r.data.requires_login) {
      // Two-factor users (and anyone who may not enter here) sign in again with the new password.
      return window.location.assign(`${p.basePath}/login?notice=password-set`);
    }
    if (r.ok && r.data.user) {
      setSignedIn(redirectionFor(r.data.user, { hostTenantId: p.hostTenantId, continuePath: null, basePath: p.basePath, appUrls: p.appUrls }));
      return setPhase('done');
    }
    if (r.status === 422 && r.data.errors) {
      const first = r.data.errors.email?.[0] ?? r.data.errors.password?.[0] ?? r.data.errors.password_confirmation?.[0];
      return setError(first ?? t('reset.failed'));
    }
    if (r.status === 429 && typeof r.data.duration === 'number') return setError(t('reset.throttled', { seconds: r.data.duration }));
    setError(t('reset.failed'));
  };

  if (redirection) return <Redirection lang={p.lang} input={redirection} />;
  if (phase === 'invalid') {
    return (
      <div>
        <p ref={messageRef} tabIndex={-1} role="alert" className="mt-0 rounded border border-amber-700 bg-amber-50 p-3 text-amber-950" data-testid="reset-invalid">
          {t('reset.invalid')}
        </p>
        <a href={`${p.basePath}/forgot`} className={buttonClass('primary', { block: true, className: 'mt-4 block text-center no-underline' })}>
          {t('reset.tryAgain')}
        </a>
      </div>
    );
  }
  if (phase === 'done') {
    return (
      <p ref={messageRef} tabIndex={-1} role="status" className="mt-0 rounded border border-green-700 bg-green-50 p-3 text-green-900" data-testid="reset-success">
        {t('reset.success', { seconds: countdown })}
      </p>
    );
  }

  const primary = buttonClass('primary', { block: true });
  return (
    <div>
      <div aria-live="polite">
        {error && (
          <p role="alert" className="rounded border border-red-700 bg-red-50 p-3 text-red-900" data-testid="reset-error">
            {error}
          </p>
        )}
      </div>
      <form
        method="post"
        action={`${p.basePath}/reset?${new URLSearchParams({ email: p.email, token: p.token })}`}
        noValidate
        onSubmit={(e) => void submit(e)}
        className="flex flex-col gap-4"
      >
        <input type="hidden" name="token" value={p.token} />
        <div>
          <label htmlFor="reset-email" className="font-medium">
            {t('reset.email')}
          </label>
          <input
            id="reset-email"
            name="email"
            type="email"
            autoComplete="username"
            value={p.email}
            readOnly
            className="mt-1 block w-full rounded border border-slate-500 bg-slate-100 px-3 py-2 text-base"
          />
        </div>
        <NewPasswordFields
          t={t}
          idPrefix="reset"
          policy={policy}
          state={next}
          passwordLabel={t('reset.password')}
          confirmationLabel={t('reset.confirmation')}
          names={{ password: 'password', confirmation: 'password_confirmation' }}
          inputRef={passwordRef}
          onEdit={() => error && setError(null)}
        />
        {/* Disabled until valid only once the island runs: without JavaScript the server checks. */}
        <button type="submit" {...whyDisabled('reset-why', hydrated && !next.valid && t('passwordForm.submitHint'), busy)} className={primary}>
          {t('reset.submit')}
        </button>
        <WhyHint id="reset-why" reason={hydrated && !next.valid && t('passwordForm.submitHint')} busy={busy} className="-mt-2" />
      </form>
    </div>
  );
}
