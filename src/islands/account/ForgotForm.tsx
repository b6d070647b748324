// Forgot password (spec 01 "Forgot password screen", section 4 outcomes, section 8 "Forgot"):
// email, Get Password Reset Link (disabled while the address is invalid or once the link is sent),
// and Log in back to the login page with the same query. Without JavaScript the form posts to the
// forgot page, which answers the same outcomes (src/routes/account/forgot-page.tsx).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../../shared/api';
import { emailProblem } from '../../shared/form-rules';
import { getT, type Lang } from '../../shared/i18n';
import { useHydrated } from '../kit/hydrated';
import { buttonClass } from '../kit/Button';
import { WhyHint } from '../kit/why-hint';

export interface ForgotFormProps {
  lang: Lang;
  basePath: string;
  /** The page's query string, carried back to login ("?continue=..."). */
  query: string;
  /** A posted form's answer: the address typed, the outcome (a message key), the throttle's seconds. */
  initialEmail?: string;
  initialOutcome?: { kind: 'success' | 'error'; key: string } | null;
  initialWait?: number;
}

type Outcome = { kind: 'success' | 'error'; text: string } | null;

export default function ForgotForm(p: ForgotFormProps) {
  const t = getT(p.lang);
  const hydrated = useHydrated();
  const [email, setEmail] = useState(p.initialEmail ?? '');
  // A posted address was checked: its problem shows at once.
  const [touched, setTouched] = useState(p.initialEmail !== undefined);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(p.initialOutcome?.kind === 'success');
  const [wait, setWait] = useState(p.initialWait ?? 0);
  const [outcome, setOutcome] = useState<Outcome>(p.initialOutcome ? { kind: p.initialOutcome.kind, text: t(p.initialOutcome.key) } : null);
  const emailRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    emailRef.current?.focus();
  }, []);
  useEffect(() => {
    if (wait <= 0) return;
    const id = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(id);
  }, [wait]);

  const problem = emailProblem(email);
  const emailError = touched && problem ? t(problem) : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (problem || busy || sent || wait > 0) return;
    setBusy(true);
    setOutcome(null);
    const r = await api<{ duration?: number }>(p.basePath, 'POST', 'password/email', { email: email.trim() });
    setBusy(false);
    if (r.status === 429 && typeof r.data.duration === 'number') return setWait(r.data.duration);
    if (r.ok && r.data.message === 'email_sent') {
      setSent(true);
      return setOutcome({ kind: 'success', text: t('forgot.emailSent') });
    }
    if (r.data.message === 'user_is_not_registered') return setOutcome({ kind: 'error', text: t('forgot.notRegistered') });
    if (r.data.message === 'error_sending_mail') return setOutcome({ kind: 'error', text: t('forgot.errorSending') });
    setOutcome({ kind: 'error', text: t('errors.generic') });
  };

  const primary = buttonClass('primary', { block: true });
  return (
    <div>
      <p className="mt-0 text-slate-700">{t('forgot.intro')}</p>
      <div aria-live="polite">
        {wait > 0 && (
          <p id="forgot-throttle" role="alert" className="rounded border border-amber-700 bg-amber-50 p-3 text-amber-900" data-testid="forgot-throttle">
            {t('forgot.throttled', { seconds: wait })}
          </p>
        )}
        {outcome && (
          <p
            id="forgot-outcome"
            role={outcome.kind === 'error' ? 'alert' : 'status'}
            data-testid={outcome.kind === 'error' ? 'forgot-error' : 'forgot-success'}
            className={`rounded border p-3 ${outcome.kind === 'error' ? 'border-red-700 bg-red-50 text-red-900' : 'border-green-700 bg-green-50 text-green-900'}`}
          >
            {outcome.text}
          </p>
        )}
      </div>
      <form method="post" action={`${p.basePath}/forgot${p.query}`} noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
        <div>
          <label htmlFor="forgot-email" className="font-medium">
            {t('forgot.email')}
          </label>
          <input
            ref={emailRef}
            id="forgot-email"
            name="email"
            type="email"
            autoComplete="username"
            value={email}
            readOnly={sent}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? 'forgot-email-error' : undefined}
            onChange={(e) => setEmail(e.target.value)}
            onBlur={() => email !== '' && setTouched(true)}
            className="mt-1 block w-full rounded border border-slate-500 px-3 py-2 text-base read-only:bg-slate-100"
          />
          {emailError && (
            <p id="forgot-email-error" className="m-0 mt-1 text-sm text-red-800">
              {emailError}
            </p>
          )}
        </div>
        {/* Disabled while invalid or throttled only once the island runs: without JavaScript the server checks. */}
        {/* Why it is disabled (decision 0047): the throttle or the sent link says so above; an
            address not yet valid, the hint under it. */}
        <button
          type="submit"
          disabled={busy || sent || (hydrated && (problem !== null || wait > 0))}
          aria-describedby={busy ? undefined : sent ? 'forgot-outcome' : hydrated && wait > 0 ? 'forgot-throttle' : hydrated && problem ? 'forgot-why' : undefined}
          className={primary}
        >
          {t('forgot.submit')}
        </button>
        <WhyHint id="forgot-why" reason={hydrated && !sent && wait <= 0 && problem !== null && t('forgot.submitHint')} busy={busy} className="-mt-2" />
      </form>
      <a
        href={`${p.basePath}/login${p.query}`}
        className="mt-4 block w-full rounded border border-blue-800 bg-white px-4 py-2 text-center text-base text-blue-800 no-underline hover:bg-blue-50"
      >
        {t('forgot.backToLogin')}
      </a>
    </div>
  );
}
