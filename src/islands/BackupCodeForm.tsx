// The backup-code step of login (spec 01 "Backup-code page", sections 4 and 8): one of the five
// codes saved at setup. A wrong or used code says so and leaves the step usable (the pending
// login is still there): another code, the authenticator code instead, or logging in again, with
// links that keep the query (decision 0033: before, the form was disabled and the page a dead
// end). Locked-out counts down; anything else goes back to login. A correct code signs in like
// the password step (AfterSignIn).
import { useState } from 'react';
import { api } from '../shared/api';
import { getT } from '../shared/i18n';
import { backupCodeSchema } from '../shared/schemas';
import type { PasswordComplianceAnswer, SignedInUser } from '../shared/signed-in';
import AfterSignIn, { type SignedInAnswer, type SignInContext } from './AfterSignIn';
import { CodeStepForm, useCodeEntry } from './kit/code-step';

export type BackupCodeFormProps = SignInContext;

type Verified = { user?: SignedInUser; password_compliance?: PasswordComplianceAnswer | null };

export default function BackupCodeForm(props: BackupCodeFormProps) {
  const { lang, basePath } = props;
  const t = getT(lang);
  const entry = useCodeEntry(t);
  const [invalid, setInvalid] = useState(false);
  const [done, setDone] = useState<SignedInAnswer | null>(null);
  const loginHref = `${basePath}/login${props.query}`;
  const otpHref = `${basePath}/otp${props.query}`;

  const verify = async (code: string) => {
    const parsed = backupCodeSchema.safeParse({ backupCode: code.trim() });
    if (!parsed.success) return entry.invalid(t(parsed.error.issues[0]!.message));
    setInvalid(false);
    const r = await entry.attempt(() => api<Verified>(basePath, 'POST', 'backup-code', parsed.data));
    if (!r) return;
    if (r.ok && r.data.user) return setDone({ user: r.data.user, password_compliance: r.data.password_compliance });
    if (r.data.message === 'invalid-backup-code') {
      setInvalid(true);
      entry.inputRef.current?.select();
      return;
    }
    window.location.assign(loginHref);
  };

  if (done) return <AfterSignIn ctx={props} answer={done} />;

  const hintId = entry.fieldError ? 'backup-code-error' : 'backup-code-hint';
  return (
    <div>
      <div aria-live="polite">
        {invalid && (
          <div role="alert" className="mb-4 rounded border border-red-700 bg-red-50 p-3 text-red-900" data-testid="backup-invalid">
            <p className="m-0">{t('backupLogin.invalid')}</p>
            <WaysBack links={[[otpHref, t('backupLogin.useCode')], [loginHref, t('backupLogin.logInAgain')]]} className="mt-2 gap-1" linkClass="font-medium text-red-900" />
          </div>
        )}
      </div>
      <CodeStepForm
        t={t}
        entry={entry}
        ns="backupLogin"
        testId="backup"
        hint={t('backupLogin.hint')}
        onSubmit={(code) => void verify(code)}
        complete
        field={
          <div>
            <label htmlFor="backup-code" className="font-medium">
              {t('backupLogin.code')}
            </label>
            <input
              ref={entry.inputRef}
              id="backup-code"
              name="backupCode"
              type="text"
              inputMode="numeric"
              autoComplete="off"
              maxLength={64}
              value={entry.code}
              aria-invalid={entry.fieldError || invalid ? true : undefined}
              aria-describedby={hintId}
              onChange={(e) => entry.setCode(e.target.value)}
              className="mt-1 block w-full rounded border border-slate-500 px-3 py-2 font-mono text-lg tracking-wider"
            />
            <p id={hintId} className={`m-0 mt-1 text-sm ${entry.fieldError ? 'text-red-800' : 'text-slate-700'}`}>
              {entry.fieldError ?? t('backupLogin.hint')}
            </p>
          </div>
        }
      />
      <WaysBack links={[[otpHref, t('backupLogin.useCode')], [loginHref, t('common.backToLogin')]]} className="mt-4 gap-2" linkClass="text-blue-800" />
    </div>
  );
}

/** Links out of the step, as a list. */
function WaysBack({ links, className, linkClass }: { links: [href: string, text: string][]; className: string; linkClass: string }) {
  return (
    <ul className={`m-0 flex list-none flex-col p-0 ${className}`}>
      {links.map(([href, text]) => (
        <li key={text}>
          <a href={href} className={`underline ${linkClass}`}>
            {text}
          </a>
        </li>
      ))}
    </ul>
  );
}
