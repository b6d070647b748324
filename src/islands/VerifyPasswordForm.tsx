// Password re-entry before the account's two-factor screens (spec 01 "verify-password", sections
// 5, 7 and 8): POST password/verify; wrong_password shows 'wrong password'; success goes on to the
// page named by the redirect query (checked on the server: twofa or a same-portal path).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../shared/api';
import { getT, type Lang } from '../shared/i18n';
import { PasswordInput } from './PasswordFields';
import { BUTTON_PRIMARY, Notice, retryAfterSeconds, useCountdown } from './twofa-parts';

export interface VerifyPasswordFormProps {
  lang: Lang;
  basePath: string;
  /** The redirect query as given ("twofa"), sent along with the password. */
  redirect: string;
  /** Where to go after the check: already resolved and checked by the server. */
  next: string;
}

export default function VerifyPasswordForm({ lang, basePath, redirect, next }: VerifyPasswordFormProps) {
  const t = getT(lang);
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ kind: 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [wait, setWait] = useCountdown();
  const inputRef = useRef<HTMLInputElement>(null);

  // The page is there for this one field.
  useEffect(() => inputRef.current?.focus(), []);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || wait > 0) return;
    if (!password) {
      setFieldError(t('validation.required'));
      inputRef.current?.focus();
      return;
    }
    setFieldError(null);
    setNotice(null);
    setBusy(true);
    const r = await api<{ duration?: number }>(basePath, 'POST', 'password/verify', { password, redirect });
    if (r.ok) return window.location.assign(next);
    setBusy(false);
    if (r.status === 429) return setWait(retryAfterSeconds(r));
    setNotice({ kind: 'error', text: t(r.data.message === 'wrong_password' ? 'verifyPassword.wrong' : 'errors.generic') });
    inputRef.current?.select();
  };

  return (
    <div>
      <div aria-live="polite">
        {wait > 0 && (
          <p role="alert" className="m-0 mb-4 rounded border border-amber-700 bg-amber-50 p-3 text-amber-900" data-testid="verify-password-throttle">
            {t('verifyPassword.throttled', { seconds: wait })}
          </p>
        )}
      </div>
      <Notice notice={notice} testId="verify-password-error" />
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <PasswordInput
          t={t}
          id="verify-password"
          label={t('verifyPassword.password')}
          value={password}
          onChange={(v) => {
            setPassword(v);
            setFieldError(null);
          }}
          autoComplete="current-password"
          error={fieldError}
          inputRef={inputRef}
        />
        <div className="flex flex-wrap items-center gap-4">
          <button type="submit" disabled={busy || wait > 0} className={BUTTON_PRIMARY}>
            {t('verifyPassword.submit')}
          </button>
          <a href={`${basePath}/my-account`} className="text-blue-800 underline">
            {t('common.backToMyAccount')}
          </a>
        </div>
      </form>
    </div>
  );
}
