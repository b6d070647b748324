// The additional challenge (spec 01 "Additional challenge", sections 4 and 8): the code mailed
// after a password login from a new device and network. A correct code signs in like a login
// (AfterSignIn: the Outlook add-in's mapping, or the forced change-password dialog, or the
// redirection step, exactly as after the password step); a 2FA setup the tenant enforces comes
// first. Resend has a 60-second cooldown, counted from the code the password step just sent.
import { useState } from 'react';
import { api } from '../../shared/api';
import { getT } from '../../shared/i18n';
import { pendingStepUrl, type PasswordComplianceAnswer, type SignedInUser } from '../../shared/sign-in/signed-in';
import AfterSignIn, { type SignedInAnswer, type SignInContext } from './AfterSignIn';
import { BackToLogin, CodeStepForm, ResendRow, useCodeEntry } from '../kit/code-step';

export interface AdditionalChallengeFormProps extends SignInContext {
  /** Seconds until the code mailed at the password step may be resent (0: now). */
  resendIn?: number;
}

type Verified = { user?: SignedInUser; password_compliance?: PasswordComplianceAnswer | null };

export default function AdditionalChallengeForm(props: AdditionalChallengeFormProps) {
  const { lang, basePath } = props;
  const t = getT(lang);
  const entry = useCodeEntry(t, { resendIn: props.resendIn });
  const [done, setDone] = useState<SignedInAnswer | null>(null);

  const backToLogin = () => window.location.assign(`${basePath}/login${props.query}`);

  const verify = async (otp: string) => {
    const r = await entry.attempt(() => api<Verified>(basePath, 'POST', 'additional-challenge/verify', { otp }));
    if (!r) return;
    // A 2FA setup the tenant enforces comes after the emailed code.
    const step = r.ok ? pendingStepUrl(r.data.message, basePath, props.query) : null;
    if (step) return window.location.assign(step);
    if (r.ok && r.data.user) return setDone({ user: r.data.user, password_compliance: r.data.password_compliance });
    const code = r.data.message;
    if (code === 'incorrect-additional-challenge') return entry.refuse(t('challenge.incorrect'));
    if (code === 'additional-challenge-expired') return entry.setMessage({ kind: 'error', text: t('challenge.expired') });
    // No pending login any more (expired, used, another browser), or anything unexpected.
    backToLogin();
  };

  const resend = () =>
    void entry.resend(() => api(basePath, 'POST', 'additional-challenge/resend'), t('challenge.resent'), () =>
      entry.setMessage({ kind: 'error', text: t('errors.generic') }),
    );

  return done ? (
    <AfterSignIn ctx={props} answer={done} />
  ) : (
    <div>
      <CodeStepForm
        t={t}
        entry={entry}
        ns="challenge"
        hint={t('challenge.instructions')}
        onSubmit={(otp) => void verify(otp)}
      />
      <ResendRow t={t} ns="challenge" entry={entry} onResend={resend} />
      <BackToLogin t={t} basePath={basePath} query={props.query} />
    </div>
  );
}
