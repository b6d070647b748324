// Two-factor setup in the account (spec 01 "Two-factor setup (account)", sections 4, 5 and 8):
// a three-step stepper. 1 choose the method (app or SMS); 2 the backup codes (Continue stays
// disabled until they are downloaded, printed or copied); 3 set up: the authenticator's QR code
// and key, or a mobile number and the SMS sent to it (TwofaSms, loaded only for SMS), then the
// 6-digit code (Enable at six characters). Success and failures end on my-account with a notice;
// an expired password check goes back to verify-password.
import { lazy, Suspense, useState } from 'react';
import { api, type ApiResult } from '../../shared/api';
import { VALIDATION_FAILED } from '../../shared/api-words';
import { getT, type Lang } from '../../shared/i18n';
import { buttonClass } from '../kit/Button';
import { CodeStepForm, useCodeEntry } from '../kit/code-step';
import { BackupCodesPanel, failedSetupUrl, MethodChoice, QrPanel, useFocusOnChange, type TwofaMethod } from './twofa-parts';

const BUTTON_PRIMARY = buttonClass('primary');
const BUTTON_SECONDARY = buttonClass('secondary');

// libphonenumber's mobile metadata is most of the SMS step's weight: it loads only when chosen.
const TwofaSms = lazy(() => import('./TwofaSms'));

export interface TwofaSetupProps {
  lang: Lang;
  basePath: string;
  /** The user's email, written in the backup-codes file. */
  email: string;
}

type Method = TwofaMethod;
type Step = 1 | 2 | 3;
const STEPS: { step: Step; key: string }[] = [
  { step: 1, key: 'twofa.steps.method' },
  { step: 2, key: 'twofa.steps.backup' },
  { step: 3, key: 'twofa.steps.setup' },
];

export default function TwofaSetup({ lang, basePath, email }: TwofaSetupProps) {
  const t = getT(lang);
  const [step, setStep] = useState<Step>(1);
  const [method, setMethod] = useState<Method>('app');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [saved, setSaved] = useState(false);
  type App = { qrCode: string; manualCode: string; otpauthUrl: string | null };
  const [app, setApp] = useState<App | null>(null);
  const [smsSent, setSmsSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const entry = useCodeEntry(t);
  const headingRef = useFocusOnChange<HTMLHeadingElement>(step);

  const fail = (r: ApiResult) => window.location.assign(failedSetupUrl(basePath, r));

  const toBackupCodes = async () => {
    setBusy(true);
    setCodes(null);
    setSaved(false);
    setStep(2);
    // One POST starts the setup: the codes and (for an app) the one secret, made once.
    const r = await api<{ backupCodes?: string[]; qrCode?: string | null; manualCode?: string | null; otpauthUrl?: string | null }>(basePath, 'POST', 'twofa/setup', { method });
    if (!r.ok || !Array.isArray(r.data.backupCodes)) return fail(r);
    setCodes(r.data.backupCodes);
    setApp(r.data.qrCode && r.data.manualCode ? { qrCode: r.data.qrCode, manualCode: r.data.manualCode, otpauthUrl: r.data.otpauthUrl ?? null } : null);
    setBusy(false);
  };

  const toSetup = async () => {
    entry.setCode('');
    entry.setMessage(null);
    setSmsSent(false);
    setStep(3);
    if (method !== 'app' || app) return;
    // Shown again from the started setup (read-only): the same secret the codes came with.
    setBusy(true);
    const r = await api<{ manualCode?: string | null; otpauthUrl?: string | null }>(basePath, 'GET', 'twofa/app/manual-code');
    const qr = await api<{ qrCode?: string | null }>(basePath, 'GET', 'twofa/app/qr');
    if (!r.ok || !r.data.manualCode) return fail(r);
    if (!qr.ok || !qr.data.qrCode) return fail(qr);
    setApp({ qrCode: qr.data.qrCode, manualCode: r.data.manualCode, otpauthUrl: r.data.otpauthUrl ?? null });
    setBusy(false);
  };

  const onEnable = async (otp: string) => {
    const r = await entry.attempt(() => api(basePath, 'POST', `twofa/${method}`, { otp }));
    if (!r) return;
    if (r.ok) return window.location.assign(`${basePath}/my-account?notice=twofa-enabled`);
    if (r.data.message === 'invalid-otp' || r.data.message === VALIDATION_FAILED) return entry.refuse(t('twofa.incorrect'));
    fail(r);
  };

  const current = STEPS.find((s) => s.step === step)!;
  const loading = <p role="status">{t('common.loading')}</p>;
  const back = (to: Step) => (
    <button type="button" onClick={() => setStep(to)} disabled={busy} className={BUTTON_SECONDARY}>
      {t('twofa.back')}
    </button>
  );

  return (
    <div className="max-w-2xl rounded-lg bg-white p-6 shadow">
      <ol aria-label={t('twofa.stepsLabel')} className="m-0 mb-6 flex list-none flex-wrap gap-x-6 gap-y-2 p-0">
        {STEPS.map((s) => (
          <li key={s.step} aria-current={s.step === step ? 'step' : undefined} className={`flex items-center gap-2 ${s.step === step ? 'font-semibold text-blue-900' : 'text-slate-700'}`}>
            <span
              aria-hidden="true"
              className={`inline-flex h-7 w-7 items-center justify-center rounded-full border text-sm ${s.step < step ? 'border-green-800 bg-green-800 text-white' : s.step === step ? 'border-blue-800 bg-blue-800 text-white' : 'border-slate-500 bg-white'}`}
            >
              {s.step < step ? '✓' : s.step}
            </span>
            <span>
              <span className="sr-only">{t('twofa.stepOf', { step: s.step })} </span>
              {t(s.key)}
            </span>
          </li>
        ))}
      </ol>

      <h2 ref={headingRef} tabIndex={-1} className="m-0 mb-4 text-xl font-semibold outline-none" data-testid="twofa-step-heading">
        {t(current.key)}
      </h2>

      {step === 1 && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void toBackupCodes();
          }}
        >
          <MethodChoice t={t} name="twofa-method" value={method} onChange={setMethod} />
          <div className="mt-4 flex flex-wrap gap-2">
            <button type="submit" disabled={busy} className={BUTTON_PRIMARY}>
              {t('twofa.continue')}
            </button>
            <a href={`${basePath}/my-account`} className={`${BUTTON_SECONDARY} no-underline`}>
              {t('twofa.cancel')}
            </a>
          </div>
        </form>
      )}

      {step === 2 &&
        (codes ? (
          <div>
            <p className="mt-0">{t('twofa.backupIntro')}</p>
            <BackupCodesPanel t={t} codes={codes} email={email} onSaved={() => setSaved(true)} />
            {!saved && (
              <p id="twofa-save-hint" className="m-0 mt-3 text-sm text-slate-700">
                {t('twofa.saveFirst')}
              </p>
            )}
            <div className="mt-4 flex flex-wrap gap-2">
              <button type="button" disabled={!saved} aria-describedby={saved ? undefined : 'twofa-save-hint'} onClick={() => void toSetup()} className={BUTTON_PRIMARY}>
                {t('twofa.continue')}
              </button>
              {back(1)}
            </div>
          </div>
        ) : (
          loading
        ))}

      {step === 3 && (
        <div>
          {method === 'app' && (app ? (
            <>
              <p className="mt-0">{t('twofa.appIntro')}</p>
              <QrPanel t={t} qrCode={app.qrCode} manualCode={app.manualCode} otpauthUrl={app.otpauthUrl} />
            </>
          ) : (
            loading
          ))}
          {method === 'sms' && (
            <Suspense fallback={loading}>
              <TwofaSms lang={lang} basePath={basePath} onSent={() => setSmsSent(true)} onFail={fail} />
            </Suspense>
          )}
          {(method === 'app' ? app !== null : smsSent) && (
            <CodeStepForm
              t={t}
              entry={entry}
              ns="twofa"
              className="mt-6"
              block={false}
              hint={t(method === 'app' ? 'twofa.appCodeHint' : 'twofa.smsCodeHint')}
              submitLabel={t('twofa.enable')}
              onSubmit={(otp) => void onEnable(otp)}
            />
          )}
          <div className="mt-4">{back(2)}</div>
        </div>
      )}
    </div>
  );
}
