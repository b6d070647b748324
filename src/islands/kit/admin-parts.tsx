// Pieces the tenant-settings islands share (spec 02): buttons, a labelled text field with its
// error, an on/off switch, a confirmation dialog and the snackbar ("toast") with the spec's
// durations (section 9: 3000 ms by default; errors stay 10 s, as on the account screens, so
// there is time to read them). Not an island itself.
import { useRef, type ReactNode, type Ref } from 'react';
import Dialog from './Dialog';
import LiveAlert from './Alert';
import { BUTTON_VARIANTS } from './Button';

export const BTN_PRIMARY = BUTTON_VARIANTS.primary;
export const BTN_SECONDARY = BUTTON_VARIANTS.secondary;
export const BTN_DANGER = BUTTON_VARIANTS.danger;
export const BTN_SMALL = BUTTON_VARIANTS.small;
export const BTN_SMALL_DANGER = BUTTON_VARIANTS['small-danger'];
export const INPUT = 'mt-1 block w-full rounded border border-slate-500 px-3 py-2 text-base disabled:bg-slate-100 disabled:text-slate-700';
export const CARD = 'rounded-lg bg-white p-4 shadow';

// ---------------------------------------------------------------------------------------------
// Toast: the kit's (drawn above a modal dialog's backdrop).

export { ERROR_TOAST_MS, Toast, TOAST_MS, useToast, type ToastKind, type ToastMessage } from './Toast';

/** An inline message that screen readers announce (an alert for errors, a status otherwise). */
export function InlineNotice({ kind, text, testId, id }: { kind: 'error' | 'warning' | 'success'; text: string | null; testId?: string; id?: string }) {
  return <LiveAlert message={text ? { kind, text } : null} testId={testId} id={id} />;
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
