// The additional challenge (spec 01 "Additional challenge", sections 4 and 8): the code mailed
// after a password login from a new device and network. A correct code signs in like a login
// (user + password_compliance): the Outlook add-in's mapping, or the forced change-password
// dialog, or the redirection step, exactly as after the password step. Resend has a 60-second
// cooldown.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../shared/api';
import { formatCountdown } from '../shared/dates';
import { otpProblem } from '../shared/form-rules';
import { getT, type Lang } from '../shared/i18n';
import { DEFAULT_POLICY, type PasswordPolicy } from '../shared/password-policy';
import type { AppKey, RedirectionInput } from '../shared/redirection';
import { forcedReason, pendingStepUrl, redirectionFor, type PasswordComplianceAnswer, type SignedInUser } from '../shared/signed-in';
import ChangePasswordDialog, { type ForcedReason } from './ChangePasswordDialog';
import OutlookComplete from './OutlookComplete';
import Redirection from './Redirection';

export interface AdditionalChallengeFormProps {
  lang: Lang;
  basePath: string;
  /** Tenant of this host, or null on the main domain. */
  tenant: { id: number } | null;
  /** Already checked with safeContinuePath. */
  continuePath: string | null;
  /** The page's query string, kept when the flow goes back to login. */
  query: string;
  appUrls: Record<AppKey, string>;
  /** Outlook add-in sign-in, carried from the login page's query (see LoginForm). */
  source?: string | null;
  token?: string | null;
  startUrl?: string | null;
}

/** Resend cooldown after a successful resend (spec 01 section 9). */
export const RESEND_COOLDOWN_SECONDS = 60;
const CODE_LENGTH = 6;

type Notice = { kind: 'error' | 'status'; text: string };

/** One tick a second down to zero. */
function useCountdown(): [number, (seconds: number) => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const id = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(id);
  }, [left]);
  return [left, setLeft];
}

export default function AdditionalChallengeForm(props: AdditionalChallengeFormProps) {
  const { lang, basePath } = props;
  const t = getT(lang);
  const [otp, setOtp] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const [lockedFor, setLockedFor] = useCountdown();
  const [cooldown, setCooldown] = useCountdown();
  const [redirection, setRedirection] = useState<RedirectionInput | null>(null);
  const [outlookDone, setOutlookDone] = useState<string | null>(null);
  // The change-password dialog forced after sign-in, with the redirection that follows it.
  const [forced, setForced] = useState<{ reason: ForcedReason; policy: PasswordPolicy; email: string; then: RedirectionInput } | null>(null);
  const outlookToken = props.source === 'outlook' && props.token ? props.token : null;
  const inputRef = useRef<HTMLInputElement>(null);

  // The code is all this page asks for: the field has the focus from the start.
  useEffect(() => inputRef.current?.focus(), []);

  const backToLogin = () => window.location.assign(`${basePath}/login${props.query}`);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || lockedFor > 0 || otp.length !== CODE_LENGTH) return;
    // Half-width digits only: full-width ones are refused, never converted behind the user's back.
    const problem = otpProblem(otp);
    if (problem) {
      setFieldError(t(problem));
      inputRef.current?.focus();
      return;
    }
    setFieldError(null);
    setNotice(null);
    setBusy(true);
    const r = await api<{ user?: SignedInUser; duration?: number; password_compliance?: PasswordComplianceAnswer | null }>(
      basePath,
      'POST',
      'additional-challenge/verify',
      { otp },
    );
    // A 2FA setup the tenant enforces comes after the emailed code.
    const step = r.ok ? pendingStepUrl(r.data.message, basePath, props.query) : null;
    if (step) return window.location.assign(step);
    if (r.ok && r.data.user) {
      // The user is stored (spec 01 section 4): the same three ways on as after the password step.
      if (outlookToken) return setOutlookDone(r.data.user.email);
      const next = redirectionFor(r.data.user, {
        hostTenantId: props.tenant?.id ?? null,
        continuePath: props.continuePath,
        basePath,
        appUrls: props.appUrls,
      });
      const compliance = r.data.password_compliance;
      const reason = forcedReason(compliance);
      if (reason) return setForced({ reason, policy: compliance?.policy ?? DEFAULT_POLICY, email: r.data.user.email, then: next });
      return setRedirection(next);
    }
    setBusy(false);
    const code = r.data.message;
    if (r.status === 429 && code === 'locked-out' && typeof r.data.duration === 'number') {
      setLockedFor(r.data.duration);
      return;
    }
    if (code === 'incorrect-additional-challenge') {
      setNotice({ kind: 'error', text: t('challenge.incorrect') });
      inputRef.current?.select();
      return;
    }
    if (code === 'additional-challenge-expired') return setNotice({ kind: 'error', text: t('challenge.expired') });
    // No pending login any more (expired, used, another browser), or anything unexpected.
    backToLogin();
  };

  const onResend = async () => {
    if (busy || cooldown > 0) return;
    setNotice(null);
    setBusy(true);
    const r = await api<{ duration?: number }>(basePath, 'POST', 'additional-challenge/resend');
    setBusy(false);
    if (r.ok) {
      setNotice({ kind: 'status', text: t('challenge.resent') });
      setCooldown(RESEND_COOLDOWN_SECONDS);
      setOtp('');
      inputRef.current?.focus();
      return;
    }
    // Too soon (the server's minute since the last code): say so, and count down its wait.
    if (r.status === 429 && typeof r.data.duration === 'number') {
      setNotice({ kind: 'error', text: t('errors.too-many-attempts') });
      setCooldown(r.data.duration);
      return;
    }
    setNotice({ kind: 'error', text: t('errors.generic') });
  };

  if (outlookDone && outlookToken) {
    return <OutlookComplete lang={lang} basePath={basePath} token={outlookToken} startUrl={props.startUrl ?? null} email={outlookDone} />;
  }
  if (redirection) return <Redirection lang={lang} input={redirection} />;
  if (forced) {
    return (
      <ChangePasswordDialog
        lang={lang}
        basePath={basePath}
        open
        forced={forced.reason}
        policy={forced.policy}
        email={forced.email}
        // Maybe Later, or Continue after the change: the redirection step comes.
        onClose={() => {
          setRedirection(forced.then);
          setForced(null);
        }}
      />
    );
  }

  const primary =
    'w-full rounded bg-blue-800 px-4 py-2 text-base font-medium text-white hover:bg-blue-900 disabled:cursor-not-allowed disabled:bg-slate-400 disabled:text-slate-900';
  return (
    <div>
      <div aria-live="polite">
        {lockedFor > 0 && (
          <p role="alert" className="mb-4 mt-0 rounded border border-amber-700 bg-amber-50 p-3 text-amber-900" data-testid="challenge-locked">
            {t('challenge.lockedOut', { seconds: lockedFor })}
          </p>
        )}
        {notice && (
          <p
            role={notice.kind === 'error' ? 'alert' : 'status'}
            className={`mb-4 mt-0 rounded border p-3 ${notice.kind === 'error' ? 'border-red-700 bg-red-50 text-red-900' : 'border-green-700 bg-green-50 text-green-900'}`}
            data-testid="challenge-notice"
          >
            {notice.text}
          </p>
        )}
      </div>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <div>
          <label htmlFor="challenge-code" className="font-medium">
            {t('challenge.code')}
          </label>
          <input
            ref={inputRef}
            id="challenge-code"
            name="otp"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={CODE_LENGTH}
            value={otp}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? 'challenge-code-error' : 'challenge-code-hint'}
            onChange={(e) => {
              setOtp(e.target.value);
              setFieldError(null);
            }}
            className="mt-1 block w-full rounded border border-slate-500 px-3 py-2 text-lg tracking-widest"
          />
          {fieldError ? (
            <p id="challenge-code-error" className="m-0 mt-1 text-sm text-red-800">
              {fieldError}
            </p>
          ) : (
            <p id="challenge-code-hint" className="m-0 mt-1 text-sm text-slate-700">
              {t('challenge.instructions')}
            </p>
          )}
        </div>
        <button type="submit" disabled={busy || lockedFor > 0 || otp.length !== CODE_LENGTH} className={primary}>
          {t('challenge.submit')}
        </button>
      </form>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-2">
        <button
          type="button"
          onClick={() => void onResend()}
          disabled={busy || cooldown > 0}
          className="border-0 bg-transparent p-0 text-blue-800 underline disabled:cursor-not-allowed disabled:text-slate-700 disabled:no-underline"
        >
          {t('challenge.resend')}
        </button>
        {cooldown > 0 && (
          <span className="text-sm text-slate-700" data-testid="resend-countdown">
            {t('challenge.resendIn', { time: formatCountdown(cooldown) })}
          </span>
        )}
      </div>
      <p className="mb-0 mt-4">
        <a href={`${basePath}/login${props.query}`} className="text-blue-800 underline">
          {t('common.backToLogin')}
        </a>
      </p>
    </div>
  );
}
