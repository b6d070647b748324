// The trial-expired prompt (spec 02 "Trial-expired prompt", sections 4 and 7): for an admin of a
// tenant in trial_expired_not_yet_contracted, a contract-application alert above the page and a
// dialog with the plan and inquiry links that opens by itself, unless the application was already
// made today. Applying (POST apply-for-contract: success or already-applied) stores today's date
// (yyyy-MM-dd, the browser's day) under the tenant's initial subdomain, hiding both for that day.
// The server cannot know the browser's storage: nothing is rendered until the island has looked.
import { useEffect, useState } from 'react';
import { api } from '../../shared/api';
import { contractAppliedKey, localDay } from '../../shared/billing/contract';
import { getT, type Lang } from '../../shared/i18n';
import { BTN_PRIMARY, BTN_SECONDARY, InlineNotice, Toast, useToast } from '../kit/admin-parts';
import Dialog from '../kit/Dialog';

export interface TrialExpiredPromptProps {
  lang: Lang;
  basePath: string;
  initialSubdomain: string;
  planUrl: string;
  inquiryUrl: string;
}

function appliedToday(key: string): boolean {
  try {
    return window.localStorage.getItem(key) === localDay(new Date());
  } catch {
    return false;
  }
}

export default function TrialExpiredPrompt(p: TrialExpiredPromptProps) {
  const t = getT(p.lang);
  const key = contractAppliedKey(p.initialSubdomain);
  const { toast, show, close } = useToast();
  const [visible, setVisible] = useState(false);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (appliedToday(key)) return;
    setVisible(true);
    setOpen(true);
  }, []);

  const apply = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const r = await api(p.basePath, 'POST', 'apply-for-contract', {});
    setBusy(false);
    if (r.ok && (r.data.message === 'success' || r.data.message === 'already-applied')) {
      try {
        window.localStorage.setItem(key, localDay(new Date()));
      } catch {
        // Storage refused (private mode): the prompt comes back on the next page; the server
        // answers already-applied then.
      }
      setOpen(false);
      setVisible(false);
      show('success', t('trialExpired.applied'));
      return;
    }
    setError(t('errors.generic'));
  };

  const link = 'text-blue-800 underline';
  return (
    <>
      {visible && (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded border border-amber-700 bg-amber-50 p-4 text-amber-950" data-testid="trial-expired-alert">
          <p className="m-0">{t('trialExpired.alert')}</p>
          <button type="button" className={BTN_PRIMARY} onClick={() => setOpen(true)}>
            {t('trialExpired.open')}
          </button>
        </div>
      )}
      <Dialog
        open={open}
        labelledBy="trial-expired-title"
        describedBy="trial-expired-text"
        onDismiss={() => {
          if (!busy) setOpen(false);
        }}
        className="max-w-lg"
        testId="trial-expired-dialog"
      >
        <h2 id="trial-expired-title" className="m-0 text-lg font-semibold">
          {t('trialExpired.dialogTitle')}
        </h2>
        <p id="trial-expired-text" className="mb-4 mt-3">
          {t('trialExpired.dialogText')}
        </p>
        <ul className="m-0 mb-4 flex list-none flex-col gap-2 p-0">
          <li>
            <a className={link} href={p.planUrl} target="_blank" rel="noopener noreferrer">
              {t('trialExpired.plans')}
              <span className="sr-only"> {t('trialExpired.newTab')}</span>
            </a>
          </li>
          <li>
            <a className={link} href={p.inquiryUrl} target="_blank" rel="noopener noreferrer">
              {t('trialExpired.inquiry')}
              <span className="sr-only"> {t('trialExpired.newTab')}</span>
            </a>
          </li>
        </ul>
        <InlineNotice kind="error" text={error} />
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className={BTN_SECONDARY} disabled={busy} onClick={() => setOpen(false)}>
            {t('trialExpired.later')}
          </button>
          <button type="button" className={BTN_PRIMARY} disabled={busy} onClick={() => void apply()}>
            {t('trialExpired.apply')}
          </button>
        </div>
      </Dialog>
      <Toast t={t} toast={toast} onClose={close} />
    </>
  );
}
