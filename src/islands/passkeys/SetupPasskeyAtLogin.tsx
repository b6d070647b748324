// A passkey a tenant requires, added during the sign-in (/setup-passkey-at-login, decision 0039):
// the person has proven their password and their own second factor (or the emailed code); the
// tenant's policy asks them to add a passkey before the session. The browser's own dialog makes
// it; the server stores it, ends the pending login and answers as the password step would, and the
// page goes on as after any sign-in (AfterSignIn). The passkey is named after its model or the
// browser: the person can rename it in their account.
import { useState } from 'react';
import { api } from '../../shared/api';
import { errorText } from '../../shared/error-codes';
import { getT } from '../../shared/i18n';
import { loginWithNotice } from '../../shared/notices';
import type { PasswordComplianceAnswer, SignedInUser } from '../../shared/sign-in/signed-in';
import type { PasskeyView } from '../../shared/passkeys/types';
import AfterSignIn, { type SignedInAnswer, type SignInContext } from '../sign-in/AfterSignIn';
import LiveAlert, { Alert, type Message } from '../kit/Alert';
import Button from '../kit/Button';
import { BackToLogin } from '../kit/code-step';
import { makePasskey } from './ceremony';

export interface SetupPasskeyAtLoginProps extends SignInContext {
  /** Whose policy asks (the host's tenant, or the organisations of the main domain's sign-in). */
  tenantNames: string[];
}

type Reply = { user?: SignedInUser; password_compliance?: PasswordComplianceAnswer | null; passkey?: PasskeyView };

export default function SetupPasskeyAtLogin(props: SetupPasskeyAtLoginProps) {
  const { lang, basePath } = props;
  const t = getT(lang);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const [done, setDone] = useState<{ answer: SignedInAnswer; name: string } | null>(null);

  const add = async () => {
    setBusy(true);
    setMessage(null);
    const c = await makePasskey(basePath, 'passkeys/enrolment/options');
    if (c.kind === 'refused') {
      if (c.r.status === 401) return window.location.assign(loginWithNotice(basePath, props.query, 'no-pending-login'));
      setBusy(false);
      return setMessage({ kind: 'error', text: t(errorText(c.r.data.message)) });
    }
    if (c.kind === 'cancelled') {
      setBusy(false);
      return setMessage({ kind: 'error', text: t(c.reason === 'already-registered' ? 'passkeys.errors.alreadyOnDevice' : c.reason === 'unsupported' ? 'passkeys.signIn.unsupported' : 'passkeys.manage.cancelled') });
    }
    const r = await api<Reply>(basePath, 'POST', 'passkeys/enrolment/verify', { response: c.response });
    if (r.ok && r.data.user) return setDone({ answer: { user: r.data.user, password_compliance: r.data.password_compliance }, name: r.data.passkey?.name ?? '' });
    if (r.status === 401 && r.data.message === 'no-pending-login') return window.location.assign(loginWithNotice(basePath, props.query, 'no-pending-login'));
    setBusy(false);
    setMessage({ kind: 'error', text: t(errorText(r.data.message)) });
  };

  if (done) {
    return (
      <>
        <Alert kind="success" testId="passkey-enrolled">
          <p className="m-0">{t('passkeys.enrol.added', { name: done.name })}</p>
        </Alert>
        <AfterSignIn ctx={props} answer={done.answer} />
      </>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <p className="m-0">{t('passkeys.enrol.text', { tenants: props.tenantNames.join(t('passkeys.enrol.separator')) })}</p>
      <p className="m-0 text-slate-700">{t('passkeys.enrol.how')}</p>
      <LiveAlert message={message} testId="passkey-enrol-message" />
      <Button block onClick={() => void add()} disabled={busy} data-testid="passkey-enrol">
        {t('passkeys.enrol.button')}
      </Button>
      <BackToLogin t={t} basePath={basePath} query={props.query} />
    </div>
  );
}
