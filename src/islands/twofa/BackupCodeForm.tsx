// The backup-code step of login (spec 01 "Backup-code page", sections 4 and 8): one of the five
// codes saved at setup. A wrong or used code says so and leaves the step usable (the pending
// login is still there): another code, the authenticator code instead, or logging in again, with
// links that keep the query (decision 0033: before, the form was disabled and the page a dead
// end). Locked-out counts down; anything else goes back to login. A correct code signs in like
// the password step (AfterSignIn).
import { useEffect, useRef, useState } from 'react';
import { buttonClass } from '../kit/Button';
import { api } from '../../shared/api';
import { BACKUP_CODE_MAX_LENGTH, backupCodeProblem } from '../../shared/form-rules';
import { getT } from '../../shared/i18n';
import type { PasswordComplianceAnswer, SignedInUser } from '../../shared/sign-in/signed-in';
import AfterSignIn, { type SignedInAnswer, type SignInContext } from '../sign-in/AfterSignIn';
import { CodeStepForm, useCodeEntry } from '../kit/code-step';
import Field from '../kit/Field';

export type BackupCodeFormProps = SignInContext;

type Verified = { user?: SignedInUser; password_compliance?: PasswordComplianceAnswer | null; backup_codes_left?: number };

export default function BackupCodeForm(props: BackupCodeFormProps) {
  const { lang, basePath } = props;
  const t = getT(lang);
  const entry = useCodeEntry(t);
  const [invalid, setInvalid] = useState(false);
  const [done, setDone] = useState<SignedInAnswer | null>(null);
  // Codes left after this one (issue 27 part 7): said before the sign-in goes on, so a person down
  // to their last codes knows to make new ones.
  const [left, setLeft] = useState<number | null>(null);
  const continueRef = useRef<HTMLButtonElement>(null);
  // The form it replaces had the focus.
  useEffect(() => {
    if (left !== null) continueRef.current?.focus();
  }, [left]);
  const loginHref = `${basePath}/login${props.query}`;
  const otpHref = `${basePath}/otp${props.query}`;

  const verify = async (code: string) => {
    // Checked without zod in the browser (decision 0029); the server's backupCodeSchema agrees.
    const problem = backupCodeProblem(code);
    if (problem) return entry.invalid(t(problem));
    setInvalid(false);
    const r = await entry.attempt(() => api<Verified>(basePath, 'POST', 'backup-code', { backupCode: code.trim() }));
    if (!r) return;
    if (r.ok && r.data.user) {
      if (typeof r.data.backup_codes_left === 'number') setLeft(r.data.backup_codes_left);
      return setDone({ user: r.data.user, password_compliance: r.data.password_compliance });
    }
    if (r.data.message === 'invalid-backup-code') {
      setInvalid(true);
      entry.inputRef.current?.select();
      return;
    }
    window.location.assign(loginHref);
  };

  if (done && left !== null) {
    return (
      <div role="status" className="flex flex-col gap-4" data-testid="backup-codes-left">
        <p className="m-0">{left === 0 ? t('backupLogin.noneLeft') : t('backupLogin.left', { count: left })}</p>
        {left <= 2 && (
          <p className="m-0">
            {t('backupLogin.regenerate')}{' '}
            <a className="text-blue-800 underline" href={`${basePath}/my-account`}>
              {t('backupLogin.myAccount')}
            </a>
          </p>
        )}
        <button type="button" ref={continueRef} className={buttonClass('primary')} onClick={() => setLeft(null)}>
          {t('backupLogin.continue')}
        </button>
      </div>
    );
  }
  if (done) return <AfterSignIn ctx={props} answer={done} />;

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
          <Field
            id="backup-code"
            name="backupCode"
            label={t('backupLogin.code')}
            hint={t('backupLogin.hint')}
            error={entry.fieldError}
            invalid={invalid}
            value={entry.code}
            onChange={entry.setCode}
            inputRef={entry.inputRef}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            maxLength={BACKUP_CODE_MAX_LENGTH}
            className="font-mono text-lg tracking-wider"
          />
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
