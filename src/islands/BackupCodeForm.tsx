// The backup-code step of login (spec 01 "Backup-code page", sections 4 and 8): one of the five
// codes saved at setup. A wrong or used code asks the user to log in again (with a link that keeps
// the query); locked-out counts down; anything else goes back to login. A correct code signs in
// like the password step (AfterSignIn).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../shared/api';
import { getT } from '../shared/i18n';
import { backupCodeSchema } from '../shared/schemas';
import type { PasswordComplianceAnswer, SignedInUser } from '../shared/signed-in';
import AfterSignIn, { type SignedInAnswer, type SignInContext } from './AfterSignIn';
import { BUTTON_PRIMARY, retryAfterSeconds, useCountdown } from './twofa-parts';

export type BackupCodeFormProps = SignInContext;

export default function BackupCodeForm(props: BackupCodeFormProps) {
  const { lang, basePath } = props;
  const t = getT(lang);
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);
  const [busy, setBusy] = useState(false);
  const [lockedFor, setLockedFor] = useCountdown();
  const [done, setDone] = useState<SignedInAnswer | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const loginHref = `${basePath}/login${props.query}`;

  // The page is there for this one field.
  useEffect(() => inputRef.current?.focus(), []);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || lockedFor > 0 || invalid) return;
    const parsed = backupCodeSchema.safeParse({ backupCode: code.trim() });
    if (!parsed.success) {
      setFieldError(t(parsed.error.issues[0]!.message));
      inputRef.current?.focus();
      return;
    }
    setFieldError(null);
    setBusy(true);
    const r = await api<{ user?: SignedInUser; duration?: number; password_compliance?: PasswordComplianceAnswer | null }>(basePath, 'POST', 'backup-code', parsed.data);
    if (r.ok && r.data.user) return setDone({ user: r.data.user, password_compliance: r.data.password_compliance });
    setBusy(false);
    if (r.status === 429 && r.data.message === 'locked-out') return setLockedFor(retryAfterSeconds(r));
    if (r.data.message === 'invalid-backup-code') return setInvalid(true);
    window.location.assign(loginHref);
  };

  if (done) return <AfterSignIn ctx={props} answer={done} />;

  return (
    <div>
      <div aria-live="polite">
        {lockedFor > 0 && (
          <p role="alert" className="m-0 mb-4 rounded border border-amber-700 bg-amber-50 p-3 text-amber-900" data-testid="backup-locked">
            {t('backupLogin.lockedOut', { seconds: lockedFor })}
          </p>
        )}
        {invalid && (
          <div role="alert" className="mb-4 rounded border border-red-700 bg-red-50 p-3 text-red-900" data-testid="backup-invalid">
            <p className="m-0">{t('backupLogin.invalid')}</p>
            <p className="m-0 mt-2">
              <a href={loginHref} className="font-medium text-red-900 underline">
                {t('backupLogin.logInAgain')}
              </a>
            </p>
          </div>
        )}
      </div>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <div>
          <label htmlFor="backup-code" className="font-medium">
            {t('backupLogin.code')}
          </label>
          <input
            ref={inputRef}
            id="backup-code"
            name="backupCode"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            maxLength={64}
            value={code}
            disabled={invalid}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? 'backup-code-error' : 'backup-code-hint'}
            onChange={(e) => {
              setCode(e.target.value);
              setFieldError(null);
            }}
            className="mt-1 block w-full rounded border border-slate-500 px-3 py-2 font-mono text-lg tracking-wider"
          />
          {fieldError ? (
            <p id="backup-code-error" className="m-0 mt-1 text-sm text-red-800">
              {fieldError}
            </p>
          ) : (
            <p id="backup-code-hint" className="m-0 mt-1 text-sm text-slate-700">
              {t('backupLogin.hint')}
            </p>
          )}
        </div>
        <button type="submit" disabled={busy || lockedFor > 0 || invalid} className={`w-full ${BUTTON_PRIMARY}`}>
          {t('backupLogin.submit')}
        </button>
      </form>
      <ul className="m-0 mt-4 flex list-none flex-col gap-2 p-0">
        <li>
          <a href={`${basePath}/otp${props.query}`} className="text-blue-800 underline">
            {t('backupLogin.useCode')}
          </a>
        </li>
        <li>
          <a href={loginHref} className="text-blue-800 underline">
            {t('common.backToLogin')}
          </a>
        </li>
      </ul>
    </div>
  );
}
