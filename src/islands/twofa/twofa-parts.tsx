// Pieces the two-factor islands share (account setup, setup at login, backup-code regeneration):
// the backup-codes panel (download, print, copy) and the QR panel. The code boxes, the countdowns
// and the wait a rate-limited answer asks for are the island kit's (kit/code-step.tsx).
import { useEffect, useId, useRef, useState } from 'react';
import type { ApiResult } from '../../shared/api';
import type { T } from '../../shared/i18n';
import { BUTTON_VARIANTS } from '../kit/Button';
import CopyButton from '../kit/CopyButton';

export { CODE_LENGTH, RESEND_COOLDOWN_SECONDS, retryAfterSeconds } from '../../shared/twofa/code-entry';
export { useCountdown } from '../kit/code-step';

export const BUTTON_PRIMARY = BUTTON_VARIANTS.primary;
export const BUTTON_SECONDARY = BUTTON_VARIANTS.secondary;
export const LINK_BUTTON = BUTTON_VARIANTS.link;
export const FIELD = 'mt-1 block w-full rounded border border-slate-500 px-3 py-2 text-base';

/** Where a failed account 2FA call sends the browser (spec 01 section 8 "Two-factor enable"). */
export function failedSetupUrl(basePath: string, r: ApiResult): string {
  if (r.status === 403 && r.data.message === 'password-verification-required') return `${basePath}/verify-password?redirect=twofa`;
  return `${basePath}/my-account?notice=twofa-error`;
}

export type SavedBy = 'download' | 'print' | 'copy';

export interface BackupCodesPanelProps {
  t: T;
  codes: string[];
  /** Account the codes belong to, written in the downloaded file. */
  email: string;
  /** Called once the user has downloaded, printed or copied the codes. */
  onSaved: (how: SavedBy) => void;
}

/**
 * The backup codes as "12345 67890", with Download (.txt), Print (only the codes) and Copy.
 * Printing marks the page so the print style sheet shows this panel alone (uno.config.ts).
 */
export function BackupCodesPanel({ t, codes, email, onSaved }: BackupCodesPanelProps) {
  const [status, setStatus] = useState<{ kind: 'status' | 'error'; text: string } | null>(null);
  const listId = useId();
  const product = t('product.name');
  const fileText = [t('twofa.file.heading', { product }), t('twofa.file.account', { email }), '', ...codes, '', t('twofa.file.note'), ''].join('\r\n');

  const download = () => {
    const url = URL.createObjectURL(new Blob([fileText], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'backup-codes.txt';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    setStatus({ kind: 'status', text: t('twofa.downloaded') });
    onSaved('download');
  };

  const print = () => {
    const root = document.documentElement;
    root.dataset.printBackupCodes = 'true';
    const done = () => {
      delete root.dataset.printBackupCodes;
      window.removeEventListener('afterprint', done);
    };
    window.addEventListener('afterprint', done);
    window.print();
    // Browsers without afterprint (or a print call that returned at once) leave the page as it was.
    setTimeout(done, 1000);
    setStatus({ kind: 'status', text: t('twofa.printed') });
    onSaved('print');
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
    } catch {
      setStatus({ kind: 'error', text: t('twofa.copyFailed') });
      return;
    }
    setStatus({ kind: 'status', text: t('twofa.copied') });
    onSaved('copy');
  };

  return (
    <div data-print-area="backup-codes">
      <h3 id={listId} className="m-0 text-base font-semibold">
        {t('twofa.backupCodesLabel')}
      </h3>
      <ul aria-labelledby={listId} className="m-0 mt-2 grid list-none grid-cols-1 gap-1 rounded border border-slate-300 bg-slate-50 p-3 font-mono text-lg sm:grid-cols-2" data-testid="backup-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap gap-2 print:hidden">
        <button type="button" onClick={download} className={BUTTON_SECONDARY}>
          {t('twofa.download')}
        </button>
        <button type="button" onClick={print} className={BUTTON_SECONDARY}>
          {t('twofa.print')}
        </button>
        <button type="button" onClick={() => void copy()} className={BUTTON_SECONDARY}>
          {t('twofa.copy')}
        </button>
      </div>
      <div aria-live="polite" className="print:hidden">
        {status && (
          <p role={status.kind === 'error' ? 'alert' : 'status'} className={`m-0 mt-2 text-sm ${status.kind === 'error' ? 'text-red-800' : 'text-green-900'}`} data-testid="backup-codes-status">
            {status.text}
          </p>
        )}
      </div>
    </div>
  );
}

/**
 * The authenticator app's QR code (an SVG data URL from the server), the key to type instead with
 * a copy button, and on a phone (where nothing can scan its own screen) the otpauth:// link that
 * hands the same key to the authenticator app installed there.
 */
export function QrPanel({ t, qrCode, manualCode, otpauthUrl }: { t: T; qrCode: string; manualCode: string; otpauthUrl?: string | null }) {
  // On a phone the link is the main action (nothing scans its own screen): first, drawn as a
  // button, the QR code smaller under it and the key across the whole width. From 640px the QR
  // code and the key sit side by side and the link is a plain link, still first (issue 27 part 2).
  return (
    <div className="flex flex-col gap-4">
      {otpauthUrl && (
        <p className="m-0">
          <a
            href={otpauthUrl}
            className="inline-block rounded bg-blue-800 px-4 py-3 font-semibold text-white no-underline sm:rounded-none sm:bg-transparent sm:p-0 sm:font-normal sm:text-blue-800 sm:underline"
            data-testid="twofa-otpauth-link"
          >
            {t('twofa.openInApp')}
          </a>
          <span className="mt-1 block text-sm text-slate-700">{t('twofa.openInAppHint')}</span>
        </p>
      )}
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <img src={qrCode} alt={t('twofa.qrAlt')} width={192} height={192} className="h-40 w-40 shrink-0 rounded border border-slate-300 bg-white sm:h-48 sm:w-48" data-testid="twofa-qr" />
        <div className="min-w-0 sm:flex-1">
          <p className="m-0 text-sm text-slate-700">{t('twofa.manualLabel')}</p>
          <p className="m-0 mt-1 break-all font-mono text-lg">
            <code data-testid="twofa-manual-code">{manualCode}</code>
          </p>
          <div className="mt-2">
            <CopyButton t={t} text={manualCode.replace(/\s+/g, '')} label={t('twofa.copyKey')} testId="twofa-copy-key" />
          </div>
        </div>
      </div>
    </div>
  );
}

/** Moves the focus to a step's heading when the step changes (not on first paint). */
export function useFocusOnChange<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    ref.current?.focus();
  }, [key]);
  return ref;
}

export type TwofaMethod = 'app' | 'sms';

/**
 * The choice of method (authenticator app or SMS) as radio cards, each with its hint: the account's
 * step 1 and the setup at login's second tab (decision 0046). `name` keeps the ids of two choices
 * apart.
 */
export function MethodChoice({ t, name, value, onChange }: { t: T; name: string; value: TwofaMethod; onChange: (m: TwofaMethod) => void }) {
  return (
    <fieldset className="m-0 border-0 p-0">
      <legend className="mb-2 p-0 font-medium">{t('twofa.methodLegend')}</legend>
      {(['app', 'sms'] as const).map((m) => (
        <label key={m} className={`mb-2 flex cursor-pointer items-start gap-3 rounded border p-3 ${value === m ? 'border-blue-800 bg-blue-50' : 'border-slate-300'}`}>
          <input
            type="radio"
            name={name}
            value={m}
            checked={value === m}
            onChange={() => onChange(m)}
            className="mt-1 h-4 w-4"
            aria-labelledby={`${name}-${m}-name`}
            aria-describedby={`${name}-${m}-hint`}
          />
          <span>
            <span id={`${name}-${m}-name`} className="block font-medium">{t(m === 'app' ? 'twofa.methodApp' : 'twofa.methodSms')}</span>
            <span id={`${name}-${m}-hint`} className="block text-sm text-slate-700">
              {t(m === 'app' ? 'twofa.methodAppHint' : 'twofa.methodSmsHint')}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
