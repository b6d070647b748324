// Two-factor setup forced at login (spec 01 "Two-factor setup at login", sections 4 and 8): the
// tenant enforces 2FA and the user has none. Two tabs: the backup codes (Continue once the user
// confirms they saved them), then the QR code with the code entry (Enable at six digits). The
// second tab offers the account's methods (decision 0046): the authenticator app by default, as
// above, or SMS (the account's TwofaSms, loaded only when chosen, with the calls of the setup at
// login; Enable once the six digits of the texted code are in). The setup is started once (POST
// setup-twofa-at-login/setup); a failure goes back to login. "Skip for now" only where the tenant
// allows it. Success signs in like the password step (AfterSignIn).
import { lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { api } from '../../shared/api';
import { VALIDATION_FAILED } from '../../shared/api-words';
import { getT } from '../../shared/i18n';
import { loginWithNotice } from '../../shared/notices';
import type { PasswordComplianceAnswer, SignedInUser } from '../../shared/sign-in/signed-in';
import AfterSignIn, { type SignedInAnswer, type SignInContext } from '../sign-in/AfterSignIn';
import { buttonClass } from '../kit/Button';
import { BackToLogin, CodeStepForm, useCodeEntry } from '../kit/code-step';
import { BackupCodesPanel, MethodChoice, QrPanel, type TwofaMethod } from './twofa-parts';

// libphonenumber's mobile metadata is most of the SMS step's weight: only when SMS is chosen.
const TwofaSms = lazy(() => import('./TwofaSms'));
const SMS_CALLS = { send: 'setup-twofa-at-login/sms/otp', resend: 'setup-twofa-at-login/sms/otp/resend' };

export interface SetupTwofaAtLoginProps extends SignInContext {
  /** Every enforcing tenant lets its members skip the setup for now. */
  skipAllowed: boolean;
  /** The pending login's email, written in the backup-codes file. */
  email: string;
}

interface Details {
  backupCodes: string[];
  manualCode: string;
  qrCode: string;
  otpauthUrl?: string | null;
}

type Tab = 'backup' | 'qr';
type SignInReply = { user?: SignedInUser; password_compliance?: PasswordComplianceAnswer | null };

export default function SetupTwofaAtLogin(props: SetupTwofaAtLoginProps) {
  const { lang, basePath } = props;
  const t = getT(lang);
  const [details, setDetails] = useState<Details | null>(null);
  const [tab, setTab] = useState<Tab>('backup');
  const [saved, setSaved] = useState(false);
  const [confirmed, setConfirmed] = useState(false);
  const [method, setMethod] = useState<TwofaMethod>('app');
  const [smsSent, setSmsSent] = useState(false);
  const entry = useCodeEntry(t);
  const [done, setDone] = useState<SignedInAnswer | null>(null);
  const tabRefs = { backup: useRef<HTMLButtonElement>(null), qr: useRef<HTMLButtonElement>(null) };
  const requested = useRef(false);

  const backToLogin = () => window.location.assign(loginWithNotice(basePath, props.query, 'twofa-error'));

  useEffect(() => {
    // Once: the POST starts the setup (new backup codes and one new secret).
    if (requested.current) return;
    requested.current = true;
    void api<Details>(basePath, 'POST', 'setup-twofa-at-login/setup').then((r) => {
      if (r.ok && Array.isArray(r.data.backupCodes) && r.data.qrCode && r.data.manualCode) setDetails(r.data);
      else backToLogin();
    });
  }, []);

  const canContinue = confirmed;
  const openTab = (next: Tab) => {
    if (next === 'qr' && !canContinue) return;
    setTab(next);
    tabRefs[next].current?.focus();
  };
  // Tabs pattern: Left/Right, Home/End move between the tabs (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/).
  const onTabKey = (e: KeyboardEvent) => {
    const order: Tab[] = canContinue ? ['backup', 'qr'] : ['backup'];
    const i = order.indexOf(tab);
    let next: Tab | undefined;
    if (e.key === 'ArrowRight') next = order[(i + 1) % order.length];
    if (e.key === 'ArrowLeft') next = order[(i - 1 + order.length) % order.length];
    if (e.key === 'Home') next = order[0];
    if (e.key === 'End') next = order[order.length - 1];
    if (!next) return;
    e.preventDefault();
    openTab(next);
  };

  const signedIn = (r: { ok: boolean; data: SignInReply }) => {
    if (r.ok && r.data.user) {
      setDone({ user: r.data.user, password_compliance: r.data.password_compliance });
      return true;
    }
    return false;
  };

  const chooseMethod = (m: TwofaMethod) => {
    setMethod(m);
    setSmsSent(false);
    entry.setCode('');
    entry.setMessage(null);
  };

  const onEnable = async (otp: string) => {
    const r = await entry.attempt(() => api<SignInReply>(basePath, 'POST', `setup-twofa-at-login/${method}`, { otp }));
    if (!r || signedIn(r)) return;
    if (r.data.message === 'invalid-otp' || r.data.message === VALIDATION_FAILED) return entry.refuse(t('twofa.incorrect'));
    backToLogin();
  };

  const onSkip = async () => {
    const r = await entry.attempt(() => api<SignInReply>(basePath, 'POST', 'setup-twofa-at-login/skip'));
    if (!r || signedIn(r)) return;
    backToLogin();
  };

  if (done) return <AfterSignIn ctx={props} answer={done} />;
  if (!details) return <p role="status">{t('common.loading')}</p>;

  const tabClass = (active: boolean) =>
    `-mb-px rounded-t border px-4 py-2 text-base ${active ? 'border-slate-400 border-b-white bg-white font-semibold text-blue-900' : 'border-transparent bg-transparent text-slate-800'} disabled:cursor-not-allowed disabled:text-slate-600`;
  return (
    <div>
      <p className="mt-0">{t('setupAtLogin.intro')}</p>
      <div role="tablist" aria-label={t('setupAtLogin.tabsLabel')} className="flex gap-1 border-b border-slate-400" onKeyDown={onTabKey}>
        {(['backup', 'qr'] as const).map((name) => (
          <button
            key={name}
            ref={tabRefs[name]}
            type="button"
            role="tab"
            id={`setup-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`setup-panel-${name}`}
            aria-disabled={(name === 'qr' && !canContinue) || undefined}
            aria-describedby={name === 'qr' && !canContinue ? 'setup-continue-why' : undefined}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => openTab(name)}
            className={tabClass(tab === name)}
          >
            {t(name === 'backup' ? 'setupAtLogin.tabBackup' : 'setupAtLogin.tabQr')}
          </button>
        ))}
      </div>

      <div role="tabpanel" id="setup-panel-backup" aria-labelledby="setup-tab-backup" hidden={tab !== 'backup'} className="pt-4">
        <p className="mt-0">{t('twofa.backupIntro')}</p>
        <BackupCodesPanel t={t} codes={details.backupCodes} email={props.email} onSaved={() => setSaved(true)} />
        <label className="mt-4 inline-flex items-center gap-2">
          <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} className="h-4 w-4" aria-describedby={saved ? undefined : 'setup-save-hint'} />
          {t('setupAtLogin.confirmSaved')}
        </label>
        {!saved && (
          <p id="setup-save-hint" className="m-0 mt-1 text-sm text-slate-700">
            {t('setupAtLogin.saveHint')}
          </p>
        )}
        <div className="mt-4">
          <button type="button" disabled={!canContinue} aria-describedby={canContinue ? undefined : 'setup-continue-why'} onClick={() => openTab('qr')} className={buttonClass('primary', { block: true })}>
            {t('twofa.continue')}
          </button>
          {/* A disabled button says why (issue 27 part 7). */}
          {!canContinue && (
            <p id="setup-continue-why" className="m-0 mt-1 text-sm text-slate-700">
              {t('setupAtLogin.continueHint')}
            </p>
          )}
        </div>
      </div>

      <div role="tabpanel" id="setup-panel-qr" aria-labelledby="setup-tab-qr" hidden={tab !== 'qr'} className="pt-4">
        <MethodChoice t={t} name="setup-method" value={method} onChange={chooseMethod} />
        <div className="mt-4">
          {method === 'app' ? (
            <>
              <p className="mt-0">{t('twofa.appIntro')}</p>
              <QrPanel t={t} qrCode={details.qrCode} manualCode={details.manualCode} otpauthUrl={details.otpauthUrl ?? null} />
            </>
          ) : (
            <Suspense fallback={<p role="status">{t('common.loading')}</p>}>
              <TwofaSms lang={lang} basePath={basePath} calls={SMS_CALLS} focusOnMount={false} onSent={() => setSmsSent(true)} onFail={backToLogin} />
            </Suspense>
          )}
        </div>
        {(method === 'app' || smsSent) && (
          <CodeStepForm
            t={t}
            entry={entry}
            ns="twofa"
            id="setup-code"
            testId="setup"
            className="mt-4"
            hint={t(method === 'app' ? 'twofa.appCodeHint' : 'twofa.smsCodeHint')}
            submitLabel={t('twofa.enable')}
            onSubmit={(otp) => void onEnable(otp)}
          />
        )}
      </div>

      {props.skipAllowed && (
        <div className="mt-6 border-t border-slate-200 pt-4">
          <button type="button" disabled={entry.busy} onClick={() => void onSkip()} className={buttonClass('secondary', { block: true })}>
            {t('setupAtLogin.skip')}
          </button>
        </div>
      )}
      <BackToLogin t={t} basePath={basePath} query={props.query} />
    </div>
  );
}
