// The unverified-email banner on my-account (spec 01 "My account"): resend the verification mail
// (POST verification-mail/{id}, at most once a minute), or dismiss the banner for the rest of the
// browser session (sessionStorage: a new browser session shows it again until the address is
// verified).
import { useEffect, useState } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';

export interface UnverifiedEmailBannerProps {
  lang: Lang;
  basePath: string;
  userId: number;
  email: string;
}

type Notice = 'sent' | 'verified' | 'wait' | 'error';

export const dismissKey = (userId: number) => `portal.unverified-email-banner.dismissed.${userId}`;

function readDismissed(userId: number): boolean {
  try {
    return window.sessionStorage.getItem(dismissKey(userId)) === '1';
  } catch {
    return false; // storage blocked: the banner simply shows again
  }
}

export default function UnverifiedEmailBanner({ lang, basePath, userId, email }: UnverifiedEmailBannerProps) {
  const t = getT(lang);
  // The server cannot see sessionStorage: render the banner, then hide it if it was dismissed.
  const [dismissed, setDismissed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [wait, setWait] = useState(0);
  const [notice, setNotice] = useState<Notice | null>(null);

  useEffect(() => setDismissed(readDismissed(userId)), [userId]);
  useEffect(() => {
    if (wait <= 0) return;
    const id = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(id);
  }, [wait]);

  const dismiss = () => {
    try {
      window.sessionStorage.setItem(dismissKey(userId), '1');
    } catch {
      // storage blocked: dismissed for this page view only
    }
    setDismissed(true);
  };

  const resend = async () => {
    if (busy || wait > 0) return;
    setBusy(true);
    setNotice(null);
    const r = await api<{ duration?: number }>(basePath, 'POST', `verification-mail/${userId}`);
    setBusy(false);
    if (r.ok) return setNotice('sent');
    if (r.status === 429 && typeof r.data.duration === 'number') {
      setWait(r.data.duration);
      return setNotice('wait');
    }
    if (r.status === 409 && r.data.message === 'already-verified') return setNotice('verified');
    setNotice('error');
  };

  if (dismissed) return null;

  let message: string | null = null;
  if (notice === 'sent') message = t('unverified.sent', { email });
  if (notice === 'verified') message = t('unverified.alreadyVerified');
  if (notice === 'wait') message = wait > 0 ? t('unverified.wait', { seconds: wait }) : null;
  if (notice === 'error') message = t('errors.generic');
  const isError = notice === 'error' || notice === 'wait';

  return (
    <section
      aria-labelledby="unverified-email-title"
      className="mb-4 max-w-2xl rounded-lg border border-amber-700 bg-amber-50 p-4 text-amber-950"
      data-testid="unverified-email-banner"
    >
      <h2 id="unverified-email-title" className="m-0 text-base font-semibold">
        {t('unverified.label')}
      </h2>
      <p className="mb-0 mt-1">{t('unverified.message', { email })}</p>
      <div aria-live="polite">
        {message && (
          <p id="unverified-email-notice" role={isError ? 'alert' : 'status'} className={`mb-0 mt-2 font-medium ${isError ? 'text-red-900' : 'text-green-900'}`} data-testid="unverified-email-notice">
            {message}
          </p>
        )}
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          onClick={() => void resend()}
          disabled={busy || wait > 0 || notice === 'verified'}
          // The notice above says why: the wait, or that the address is verified (decision 0047).
          aria-describedby={!busy && message && (wait > 0 || notice === 'verified') ? 'unverified-email-notice' : undefined}
          className="rounded bg-blue-800 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-900 disabled:cursor-not-allowed disabled:bg-slate-400 disabled:text-slate-900"
        >
          {t('unverified.resend')}
        </button>
        <button type="button" onClick={dismiss} className="rounded border border-slate-600 bg-white px-3 py-1.5 text-sm text-slate-900 hover:bg-slate-100">
          {t('unverified.dismiss')}
        </button>
      </div>
    </section>
  );
}
