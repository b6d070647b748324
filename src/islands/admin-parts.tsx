// Pieces the tenant-settings islands share (spec 02): buttons, a labelled text field with its
// error, an on/off switch, a confirmation dialog and the snackbar ("toast") with the spec's
// durations (section 9: 3000 ms by default; errors stay 10 s, as on the account screens, so
// there is time to read them). Not an island itself.
import { useCallback, useEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import type { T } from '../shared/i18n';
import Dialog from './Dialog';

export const BTN_PRIMARY =
  'rounded bg-blue-800 px-4 py-2 text-base font-medium text-white hover:bg-blue-900 disabled:cursor-not-allowed disabled:bg-slate-400 disabled:text-slate-900';
export const BTN_SECONDARY =
  'rounded border border-slate-600 bg-white px-4 py-2 text-base text-slate-900 hover:bg-slate-100 disabled:cursor-not-allowed disabled:border-slate-400 disabled:text-slate-700';
export const BTN_DANGER =
  'rounded bg-red-800 px-4 py-2 text-base font-medium text-white hover:bg-red-900 disabled:cursor-not-allowed disabled:bg-slate-400 disabled:text-slate-900';
export const BTN_SMALL =
  'rounded border border-slate-600 bg-white px-3 py-1 text-sm text-slate-900 hover:bg-slate-100 disabled:cursor-not-allowed disabled:border-slate-400 disabled:text-slate-700';
export const BTN_SMALL_DANGER =
  'rounded border border-red-800 bg-white px-3 py-1 text-sm text-red-800 hover:bg-red-50 disabled:cursor-not-allowed disabled:border-slate-400 disabled:text-slate-700';
export const INPUT = 'mt-1 block w-full rounded border border-slate-500 px-3 py-2 text-base disabled:bg-slate-100 disabled:text-slate-700';
export const CARD = 'rounded-lg bg-white p-4 shadow';

// ---------------------------------------------------------------------------------------------
// Toast

export type ToastKind = 'success' | 'error';
export interface ToastMessage {
  id: number;
  kind: ToastKind;
  text: string;
  timeoutMs: number;
}

export const TOAST_MS = 3000;
export const ERROR_TOAST_MS = 10_000;

/** One toast at a time; a new one replaces the old. */
export function useToast(initial?: { kind: ToastKind; text: string } | null) {
  const [toast, setToast] = useState<ToastMessage | null>(
    initial ? { id: 0, ...initial, timeoutMs: initial.kind === 'error' ? ERROR_TOAST_MS : TOAST_MS } : null,
  );
  const next = useRef(1);
  const show = useCallback((kind: ToastKind, text: string, timeoutMs?: number) => {
    setToast({ id: next.current++, kind, text, timeoutMs: timeoutMs ?? (kind === 'error' ? ERROR_TOAST_MS : TOAST_MS) });
  }, []);
  const close = useCallback(() => setToast(null), []);
  return { toast, show, close };
}

/**
 * The live region is on the page from the first paint, so screen readers announce what later
 * appears in it. The toast stays while the pointer or the focus is on it.
 */
export function Toast({ t, toast, onClose }: { t: T; toast: ToastMessage | null; onClose: () => void }) {
  const [held, setHeld] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!toast || held) return;
    const id = setTimeout(onClose, toast.timeoutMs);
    return () => clearTimeout(id);
  }, [toast, held]);
  useEffect(() => setHeld(false), [toast?.id]);
  const style = toast?.kind === 'error' ? 'border-red-700 bg-red-50 text-red-900' : 'border-green-700 bg-green-50 text-green-900';
  return (
    <div aria-live="polite" className="fixed bottom-4 right-4 z-40 max-w-md">
      {toast && (
        <div
          key={toast.id}
          ref={ref}
          role={toast.kind === 'error' ? 'alert' : 'status'}
          onMouseEnter={() => setHeld(true)}
          onMouseLeave={() => setHeld(false)}
          onFocus={() => setHeld(true)}
          onBlur={(e) => {
            if (!ref.current?.contains(e.relatedTarget as Node | null)) setHeld(false);
          }}
          className={`flex items-start gap-3 rounded border p-4 shadow-lg ${style}`}
          data-testid="toast"
        >
          <p className="m-0 flex-1">{toast.text}</p>
          <button type="button" onClick={onClose} aria-label={t('admin.common.dismiss')} className="rounded border border-current bg-white px-2 py-0.5 text-sm">
            {t('admin.common.close')}
          </button>
        </div>
      )}
    </div>
  );
}

/** An inline message that screen readers announce (an alert for errors, a status otherwise). */
export function InlineNotice({ kind, text, testId }: { kind: 'error' | 'warning' | 'success'; text: string | null; testId?: string }) {
  const style =
    kind === 'error' ? 'border-red-700 bg-red-50 text-red-900' : kind === 'warning' ? 'border-amber-700 bg-amber-50 text-amber-900' : 'border-green-700 bg-green-50 text-green-900';
  return (
    <div aria-live="polite">
      {text && (
        <p role={kind === 'success' ? 'status' : 'alert'} className={`m-0 mb-4 rounded border p-3 ${style}`} data-testid={testId}>
          {text}
        </p>
      )}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Fields

export interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string | null;
  hint?: string;
  required?: boolean;
  /** The "required" mark's text. */
  requiredText?: string;
  type?: 'text' | 'email' | 'tel' | 'number' | 'password';
  autoComplete?: string;
  inputMode?: 'text' | 'numeric' | 'decimal' | 'email' | 'tel';
  min?: number;
  max?: number;
  maxLength?: number;
  disabled?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  /** Extra class on the input (width). */
  className?: string;
  /** Further ids that describe the input. */
  describedBy?: string;
}

export function TextField(p: TextFieldProps) {
  const errorId = `${p.id}-error`;
  const hintId = `${p.id}-hint`;
  const describedBy = [p.error ? errorId : null, p.hint ? hintId : null, p.describedBy].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={p.id} className="font-medium">
        {p.label}
        {/* The input says it is required (aria-required); the mark is for the eye only. */}
        {p.required && p.requiredText && (
          <span aria-hidden="true" className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs font-normal text-slate-800">
            {p.requiredText}
          </span>
        )}
      </label>
      <input
        ref={p.inputRef}
        id={p.id}
        type={p.type ?? 'text'}
        value={p.value}
        onChange={(e) => p.onChange(e.target.value)}
        onBlur={p.onBlur}
        required={p.required}
        aria-required={p.required ? true : undefined}
        aria-invalid={p.error ? true : undefined}
        aria-describedby={describedBy}
        autoComplete={p.autoComplete}
        inputMode={p.inputMode}
        min={p.min}
        max={p.max}
        maxLength={p.maxLength}
        disabled={p.disabled}
        className={`${INPUT} ${p.className ?? ''}`}
      />
      {p.error && (
        <p id={errorId} className="m-0 mt-1 text-sm text-red-800">
          {p.error}
        </p>
      )}
      {p.hint && (
        <p id={hintId} className="m-0 mt-1 text-sm text-slate-700">
          {p.hint}
        </p>
      )}
    </div>
  );
}

/** An on/off switch: a button with role switch and aria-checked, its state written beside it. */
export function Switch(p: {
  id: string;
  label: string;
  checked: boolean;
  onToggle: () => void;
  disabled?: boolean;
  onText: string;
  offText: string;
  describedBy?: string;
}) {
  return (
    <div className="flex items-center gap-3">
      <span id={`${p.id}-label`} className="font-medium">
        {p.label}
      </span>
      <button
        id={p.id}
        type="button"
        role="switch"
        aria-checked={p.checked}
        aria-labelledby={`${p.id}-label`}
        aria-describedby={p.describedBy}
        disabled={p.disabled}
        onClick={p.onToggle}
        className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border-2 transition-colors disabled:cursor-not-allowed disabled:opacity-60 ${
          p.checked ? 'border-blue-800 bg-blue-800' : 'border-slate-600 bg-slate-300'
        }`}
      >
        <span aria-hidden="true" className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${p.checked ? 'translate-x-5' : 'translate-x-0.5'}`} />
      </button>
      <span aria-hidden="true" className="text-sm text-slate-800">
        {p.checked ? p.onText : p.offText}
      </span>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Confirmation

export interface ConfirmDialogProps {
  open: boolean;
  id: string;
  title: string;
  text: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  returnFocus?: () => HTMLElement | null;
  /** An error shown inside the dialog (announced). */
  error?: string | null;
}

export function ConfirmDialog(p: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open={p.open}
      labelledBy={`${p.id}-title`}
      describedBy={`${p.id}-text`}
      onDismiss={() => {
        if (!p.busy) p.onCancel();
      }}
      initialFocus={cancelRef}
      returnFocus={p.returnFocus}
      testId={p.id}
    >
      <h2 id={`${p.id}-title`} className="m-0 text-lg font-semibold">
        {p.title}
      </h2>
      <p id={`${p.id}-text`} className="mb-0 mt-3">
        {p.text}
      </p>
      <div className="mt-4">
        <InlineNotice kind="error" text={p.error ?? null} />
      </div>
      <div className="mt-2 flex justify-end gap-2">
        <button ref={cancelRef} type="button" className={BTN_SECONDARY} disabled={p.busy} onClick={p.onCancel}>
          {p.cancelLabel}
        </button>
        <button type="button" className={p.danger ? BTN_DANGER : BTN_PRIMARY} disabled={p.busy} onClick={p.onConfirm}>
          {p.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
