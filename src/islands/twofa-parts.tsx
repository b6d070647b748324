// Pieces the two-factor islands share (account setup, setup at login, code and backup-code
// pages): the 6-digit code field, the backup-codes panel (download, print, copy), the QR panel,
// a one-second countdown and the wait a rate-limited answer asks for.
import { useEffect, useId, useRef, useState, type Ref } from 'react';
import type { ApiResult } from '../shared/api';
import type { T } from '../shared/i18n';
import { otpProblem } from '../shared/form-rules';

export const CODE_LENGTH = 6;
/** Resend cooldown after a successful send (spec 01 section 9). */
export const RESEND_COOLDOWN_SECONDS = 60;

export const BUTTON_PRIMARY =
  'rounded bg-blue-800 px-4 py-2 text-base font-medium text-white hover:bg-blue-900 disabled:cursor-not-allowed disabled:bg-slate-400 disabled:text-slate-900';
export const BUTTON_SECONDARY =
  'rounded border border-slate-600 bg-white px-4 py-2 text-base text-slate-900 hover:bg-slate-100 disabled:cursor-not-allowed disabled:border-slate-400 disabled:text-slate-700';
export const LINK_BUTTON =
  'border-0 bg-transparent p-0 text-base text-blue-800 underline disabled:cursor-not-allowed disabled:text-slate-700 disabled:no-underline';
export const FIELD = 'mt-1 block w-full rounded border border-slate-500 px-3 py-2 text-base';

/** Where a failed account 2FA call sends the browser (spec 01 section 8 "Two-factor enable"). */
export function failedSetupUrl(basePath: string, r: ApiResult): string {
  if (r.status === 403 && r.data.message === 'password-verification-required') return `${basePath}/verify-password?redirect=twofa`;
  return `${basePath}/my-account?notice=twofa-error`;
}

/** One tick a second down to zero. */
export function useCountdown(initial = 0): [number, (seconds: number) => void] {
  const [left, setLeft] = useState(initial);
  useEffect(() => {
    if (left <= 0) return;
    const id = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(id);
  }, [left]);
  return [left, setLeft];
}

/**
 * Seconds a 429 answer asks the client to wait: until the reset time of `X-RateLimit-Reset` (epoch
 * seconds; spec 01 section 4: "the countdown uses the reset time from the response header"), but
 * never longer than `Retry-After` (the reset is rounded up to a whole second); else `Retry-After`,
 * else the body's `duration`, else a minute.
 */
export function retryAfterSeconds(r: ApiResult<{ duration?: number }>, nowMs = Date.now()): number {
  const after = Number(r.headers.get('Retry-After') ?? NaN);
  const retryAfter = Number.isFinite(after) && after > 0 ? Math.ceil(after) : null;
  const reset = Number(r.headers.get('X-RateLimit-Reset') ?? NaN);
  if (Number.isFinite(reset) && reset > 0) {
    const left = Math.ceil(reset - nowMs / 1000);
    if (left > 0) return retryAfter === null ? left : Math.min(left, retryAfter);
  }
  if (retryAfter !== null) return retryAfter;
  return typeof r.data.duration === 'number' && r.data.duration > 0 ? Math.ceil(r.data.duration) : RESEND_COOLDOWN_SECONDS;
}

/** The field's error for a code that is not six half-width digits (never converted), or null. */
export function otpError(t: T, otp: string): string | null {
  const problem = otpProblem(otp);
  return problem ? t(problem) : null;
}

export interface CodeFieldProps {
  id: string;
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  inputRef?: Ref<HTMLInputElement>;
  disabled?: boolean;
}

/** A one-time code: six characters, numeric keyboard, filled from SMS/OTP autofill where offered. */
export function CodeField(p: CodeFieldProps) {
  return (
    <div>
      <label htmlFor={p.id} className="font-medium">
        {p.label}
      </label>
      <input
        ref={p.inputRef}
        id={p.id}
        name="otp"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={CODE_LENGTH}
        value={p.value}
        disabled={p.disabled}
        aria-invalid={p.error ? true : undefined}
        aria-describedby={p.error ? `${p.id}-error` : `${p.id}-hint`}
        onChange={(e) => p.onChange(e.target.value)}
        className="mt-1 block w-full rounded border border-slate-500 px-3 py-2 text-lg tracking-widest"
      />
      {p.error ? (
        <p id={`${p.id}-error`} className="m-0 mt-1 text-sm text-red-800">
          {p.error}
        </p>
      ) : (
        <p id={`${p.id}-hint`} className="m-0 mt-1 text-sm text-slate-700">
          {p.hint}
        </p>
      )}
    </div>
  );
}

/** A message area that screen readers announce: an alert for errors, a status otherwise. */
export function Notice({ notice, testId }: { notice: { kind: 'error' | 'status' | 'warning'; text: string } | null; testId: string }) {
  const style =
    notice?.kind === 'error'
      ? 'border-red-700 bg-red-50 text-red-900'
      : notice?.kind === 'warning'
        ? 'border-amber-700 bg-amber-50 text-amber-900'
        : 'border-green-700 bg-green-50 text-green-900';
  return (
    <div aria-live="polite">
      {notice && (
        <p role={notice.kind === 'status' ? 'status' : 'alert'} className={`m-0 mb-4 rounded border p-3 ${style}`} data-testid={testId}>
          {notice.text}
        </p>
      )}
    </div>
  );
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

/** The authenticator app's QR code (an SVG data URL from the server) and the key to type instead. */
export function QrPanel({ t, qrCode, manualCode }: { t: T; qrCode: string; manualCode: string }) {
  return (
    <div className="flex flex-wrap items-start gap-4">
      <img src={qrCode} alt={t('twofa.qrAlt')} width={192} height={192} className="h-48 w-48 rounded border border-slate-300 bg-white" data-testid="twofa-qr" />
      <div className="min-w-0 flex-1">
        <p className="m-0 text-sm text-slate-700">{t('twofa.manualLabel')}</p>
        <p className="m-0 mt-1 break-all font-mono text-lg">
          <code data-testid="twofa-manual-code">{manualCode}</code>
        </p>
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
