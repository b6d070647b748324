// The one-time-code step of login (spec 01 "One-time-code page", sections 4, 5 and 8): the code
// from the authenticator app or the SMS, "remember this device", a link to the backup-code page
// (query kept) and, for SMS users, a resend with a 60-second cooldown. A correct code signs in
// like the password step (AfterSignIn).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { loginWithNotice } from '../shared/notices';
import { api } from '../shared/api';
import { formatCountdown } from '../shared/dates';
import { getT } from '../shared/i18n';
import type { PasswordComplianceAnswer, SignedInUser } from '../shared/signed-in';
import AfterSignIn, { type SignedInAnswer, type SignInContext } from './AfterSignIn';
import { BUTTON_PRIMARY, CODE_LENGTH, CodeField, LINK_BUTTON, Notice, otpError, RESEND_COOLDOWN_SECONDS, retryAfterSeconds, useCountdown } from './twofa-parts';

export interface OtpFormProps extends SignInContext {
  /** The pending login's factor: SMS users may ask for another code. */
  method: 'app' | 'sms';
  /** Seconds until the SMS sent at the password step may be resent (0: now). */
  resendIn: number;
}

type Msg = { kind: 'error' | 'status' | 'warning'; text: string };

export default function OtpForm(props: OtpFormProps) {
  const { lang, basePath } = props;
  const t = getT(lang);
  const [otp, setOtp] = useState('');
  const [remember, setRemember] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Msg | null>(null);
  const [busy, setBusy] = useState(false);
  const [lockedFor, setLockedFor] = useCountdown();
  const [cooldown, setCooldown] = useCountdown(props.resendIn);
  const [done, setDone] = useState<SignedInAnswer | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  // The page is there for this one field.
  useEffect(() => inputRef.current?.focus(), []);

  const backToLogin = () => window.location.assign(loginWithNotice(basePath, props.query, 'twofa-error'));

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || lockedFor > 0 || otp.length !== CODE_LENGTH) return;
    // Half-width digits only: full-width ones are refused, never converted behind the user's back.
    const invalid = otpError(t, otp);
    if (invalid) {
      setFieldError(invalid);
      inputRef.current?.focus();
      return;
    }
    setFieldError(null);
    setNotice(null);
    setBusy(true);
    const r = await api<{ user?: SignedInUser; duration?: number; password_compliance?: PasswordComplianceAnswer | null }>(basePath, 'POST', 'otp/verify', {
      otp,
      rememberDevice: remember,
    });
    if (r.ok && r.data.user) return setDone({ user: r.data.user, password_compliance: r.data.password_compliance });
    setBusy(false);
    const code = r.data.message;
    if (r.status === 429 && code === 'locked-out') {
      setLockedFor(retryAfterSeconds(r));
      return;
    }
    // invalid-otp, or an answer without an error word (spec 01 section 8).
    if (code === 'invalid-otp' || code === 'The given data was invalid.' || !code) {
      setNotice({ kind: 'error', text: t('otp.incorrect') });
      inputRef.current?.select();
      return;
    }
    // No pending login any more (expired, used, another browser), or anything unexpected.
    backToLogin();
  };

  const onResend = async () => {
    if (busy || cooldown > 0) return;
    setNotice(null);
    setBusy(true);
    const r = await api<{ duration?: number }>(basePath, 'POST', 'otp/resend');
    setBusy(false);
    if (r.ok) {
      setNotice({ kind: 'status', text: t('otp.resent') });
      setCooldown(RESEND_COOLDOWN_SECONDS);
      setOtp('');
      inputRef.current?.focus();
      return;
    }
    if (r.status === 429) {
      setNotice({ kind: 'warning', text: t('errors.too-many-attempts') });
      setCooldown(retryAfterSeconds(r));
      return;
    }
    if (r.status === 401) return backToLogin();
    setNotice({ kind: 'error', text: t('errors.generic') });
  };

  if (done) return <AfterSignIn ctx={props} answer={done} />;

  return (
    <div>
      <div aria-live="polite">
        {lockedFor > 0 && (
          <p role="alert" className="m-0 mb-4 rounded border border-amber-700 bg-amber-50 p-3 text-amber-900" data-testid="otp-locked">
            {t('otp.lockedOut', { seconds: lockedFor })}
          </p>
        )}
      </div>
      <Notice notice={notice} testId="otp-notice" />
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <CodeField
          id="otp-code"
          label={t('otp.code')}
          hint={t(props.method === 'sms' ? 'otp.instructionsSms' : 'otp.instructionsApp')}
          value={otp}
          onChange={(v) => {
            setOtp(v);
            setFieldError(null);
          }}
          error={fieldError}
          inputRef={inputRef}
        />
        <label className="inline-flex items-center gap-2">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} className="h-4 w-4" />
          {t('otp.remember')}
        </label>
        <button type="submit" disabled={busy || lockedFor > 0 || otp.length !== CODE_LENGTH} className={`w-full ${BUTTON_PRIMARY}`}>
          {t('otp.submit')}
        </button>
      </form>
      {props.method === 'sms' && (
        <div className="mt-4 flex flex-wrap items-center justify-between gap-2">
          <button type="button" onClick={() => void onResend()} disabled={busy || cooldown > 0} className={LINK_BUTTON}>
            {t('otp.resend')}
          </button>
          {cooldown > 0 && (
            <span className="text-sm text-slate-700" data-testid="resend-countdown">
              {t('otp.resendIn', { time: formatCountdown(cooldown) })}
            </span>
          )}
        </div>
      )}
      <ul className="m-0 mt-4 flex list-none flex-col gap-2 p-0">
        <li>
          <a href={`${basePath}/recovery${props.query}`} className="text-blue-800 underline">
            {t('otp.useBackupCode')}
          </a>
        </li>
        <li>
          <a href={`${basePath}/login${props.query}`} className="text-blue-800 underline">
            {t('common.backToLogin')}
          </a>
        </li>
      </ul>
    </div>
  );
}
