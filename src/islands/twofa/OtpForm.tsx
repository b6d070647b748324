// The one-time-code step of login (spec 01 "One-time-code page", sections 4, 5 and 8): the code
// from the authenticator app or the SMS, "remember this device", a link to the backup-code page
// (query kept) and, for SMS users, a resend with a 60-second cooldown. A correct code signs in
// like the password step (AfterSignIn). The code boxes, lock-out and resend are the kit's.
import { lazy, Suspense, useState } from 'react';
import { api } from '../../shared/api';
import { VALIDATION_FAILED } from '../../shared/api-words';
import { getT } from '../../shared/i18n';
import { loginWithNotice } from '../../shared/notices';
import type { PasswordComplianceAnswer, SignedInUser } from '../../shared/sign-in/signed-in';
import AfterSignIn, { type SignedInAnswer, type SignInContext } from '../sign-in/AfterSignIn';
import { CodeStepForm, ResendRow, useCodeEntry } from '../kit/code-step';
import { useHydrated } from '../kit/hydrated';

// A person with a passkey may use it instead of the code (decision 0039): loaded only for them.
const PasskeySecondStep = lazy(() => import('../passkeys/PasskeySecondStep'));

export interface OtpFormProps extends SignInContext {
  /** The pending login's factor: SMS users may ask for another code. */
  method: 'app' | 'sms';
  /** Seconds until the SMS sent at the password step may be resent (0: now). */
  resendIn: number;
  /** The person has a passkey, which may answer instead of the code. */
  passkey?: boolean;
}

type Verified = { user?: SignedInUser; password_compliance?: PasswordComplianceAnswer | null };

export default function OtpForm(props: OtpFormProps) {
  const { lang, basePath } = props;
  const t = getT(lang);
  const entry = useCodeEntry(t, { resendIn: props.resendIn });
  const [remember, setRemember] = useState(false);
  const [done, setDone] = useState<SignedInAnswer | null>(null);

  const backToLogin = () => window.location.assign(loginWithNotice(basePath, props.query, 'twofa-error'));
  const hydrated = useHydrated();

  /** A passkey's answer, sent as a code is: one attempt at a time, the same lock-out. */
  const withPasskey = async (response: unknown) => {
    const r = await entry.attempt(() => api<Verified>(basePath, 'POST', 'passkeys/second-factor/verify', { response }));
    if (!r) return;
    if (r.ok && r.data.user) return setDone({ user: r.data.user, password_compliance: r.data.password_compliance });
    if (r.status === 401 && r.data.message === 'no-pending-login') return backToLogin();
    entry.setMessage({ kind: 'error', text: t(r.data.message === 'passkey-invalid' ? 'passkeys.errors.invalid' : 'errors.generic') });
  };

  const verify = async (otp: string) => {
    const r = await entry.attempt(() => api<Verified>(basePath, 'POST', 'otp/verify', { otp, rememberDevice: remember }));
    if (!r) return;
    if (r.ok && r.data.user) return setDone({ user: r.data.user, password_compliance: r.data.password_compliance });
    const code = r.data.message;
    // invalid-otp, or an answer without an error word (spec 01 section 8).
    if (code === 'invalid-otp' || code === VALIDATION_FAILED || !code) return entry.refuse(t('otp.incorrect'));
    // No pending login any more (expired, used, another browser), or anything unexpected.
    backToLogin();
  };

  const resend = () =>
    void entry.resend(() => api(basePath, 'POST', 'otp/resend'), t('otp.resent'), (r) => {
      if (r.status === 401) return backToLogin();
      entry.setMessage({ kind: 'error', text: t('errors.generic') });
    });

  if (done) return <AfterSignIn ctx={props} answer={done} />;

  return (
    <div>
      <CodeStepForm
        t={t}
        entry={entry}
        ns="otp"
        hint={t(props.method === 'sms' ? 'otp.instructionsSms' : 'otp.instructionsApp')}
        onSubmit={(otp) => void verify(otp)}
      >
        <label className="inline-flex items-center gap-2">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} className="h-4 w-4" />
          {t('otp.remember')}
        </label>
      </CodeStepForm>
      {props.method === 'sms' && <ResendRow t={t} ns="otp" entry={entry} onResend={resend} />}
      {props.passkey && hydrated && (
        <div className="mt-4">
          <Suspense fallback={null}>
            <PasskeySecondStep
              t={t}
              basePath={basePath}
              disabled={entry.busy || entry.lockedFor > 0}
              onResponse={(response) => void withPasskey(response)}
              onRefused={(r) => (r.status === 401 ? backToLogin() : entry.setMessage({ kind: 'error', text: t('errors.generic') }))}
              onMessage={(text) => entry.setMessage({ kind: 'error', text })}
            />
          </Suspense>
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
