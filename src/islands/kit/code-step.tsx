// What every code step shares (the one-time code and backup code at login, the emailed code of
// the additional challenge, the 2FA setups, the password check and the SMS send): one attempt at
// a time, a lock-out that counts down the seconds a 429 asks for, a message, a resend with its
// cooldown (started on arrival when the server says a code was just sent), and the form that
// shows them around the six code boxes. Each island keeps only what its step means: the call,
// and what its answers lead to. Decision 0033.
import { WhyHint, whyDisabled } from './why-hint';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { ApiResult } from '../../shared/api';
import { CODE_LENGTH, RESEND_COOLDOWN_SECONDS, retryAfterSeconds } from '../../shared/twofa/code-entry';
import { formatCountdown } from '../../shared/dates';
import type { T } from '../../shared/i18n';
import LiveAlert, { Alert, type Message } from './Alert';
import { buttonClass } from './Button';
import CodeInput from './CodeInput';

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

export interface CodeEntryOptions {
  /** Seconds until a resend is allowed on arrival (a code was just sent). */
  resendIn?: number;
  /** Focus the field when the step appears (default). Not where a radio choice brings the step in:
   *  focus leaving the radio group as it is arrowed through would strand a keyboard user. */
  focusOnMount?: boolean;
}

/** The state of one code step and the two things it does: an attempt, and a resend. */
export function useCodeEntry(t: T, opts: CodeEntryOptions = {}) {
  const [code, setCodeState] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  const [lockedFor, lock] = useCountdown();
  const [cooldown, setCooldown] = useCountdown(opts.resendIn ?? 0);
  const inputRef = useRef<HTMLInputElement>(null);

  // The page is there for this one field.
  useEffect(() => {
    if (opts.focusOnMount !== false) inputRef.current?.focus();
  }, []);

  const setCode = (value: string) => {
    setCodeState(value);
    setFieldError(null);
  };

  /**
   * One call while none is running and the step is not locked. A 429 locks the step for the wait
   * it asks (null: handled). Any other answer is the island's to read; after a success the step
   * stays busy (the island moves on), after a failure it is free again.
   */
  const attempt = async <R,>(call: () => Promise<ApiResult<R>>): Promise<ApiResult<R> | null> => {
    if (busy || lockedFor > 0) return null;
    setFieldError(null);
    setMessage(null);
    setBusy(true);
    const r = await call();
    if (r.ok) return r;
    setBusy(false);
    if (r.status === 429) {
      lock(retryAfterSeconds(r as ApiResult<{ duration?: number }>));
      return null;
    }
    return r;
  };

  /** A refused code: say so, and select it for typing again. */
  const refuse = (text: string) => {
    setMessage({ kind: 'error', text });
    inputRef.current?.focus();
    inputRef.current?.select();
  };

  /** A field the browser can tell is wrong before any call. */
  const invalid = (text: string) => {
    setFieldError(text);
    inputRef.current?.focus();
  };

  /**
   * Asks for another code: sent starts the cooldown and empties the boxes; a 429 counts its wait
   * down instead; anything else is the island's (`other`).
   */
  const resend = async (call: () => Promise<ApiResult>, sentText: string, other: (r: ApiResult) => void) => {
    if (busy || cooldown > 0) return;
    setMessage(null);
    setBusy(true);
    const r = await call();
    setBusy(false);
    if (r.ok) {
      setMessage({ kind: 'success', text: sentText });
      setCooldown(RESEND_COOLDOWN_SECONDS);
      setCodeState('');
      inputRef.current?.focus();
      return;
    }
    if (r.status === 429) {
      setMessage({ kind: 'warning', text: t('errors.too-many-attempts') });
      setCooldown(retryAfterSeconds(r as ApiResult<{ duration?: number }>));
      return;
    }
    other(r);
  };

  return {
    code,
    setCode,
    fieldError,
    message,
    setMessage,
    busy,
    idle: () => setBusy(false),
    lockedFor,
    cooldown,
    setCooldown,
    inputRef,
    attempt,
    refuse,
    invalid,
    resend,
    /** Six digits typed and nothing in the way. */
    ready: !busy && lockedFor === 0 && code.length === CODE_LENGTH,
  };
}

export type CodeEntry = ReturnType<typeof useCodeEntry>;

/** The lock-out and the step's message, in one live region above the form. */
export function StepMessages({ entry, lockedText, testId }: { entry: CodeEntry; lockedText: (seconds: number) => string; testId: string }) {
  return (
    <>
      <div aria-live="polite">
        {entry.lockedFor > 0 && (
          <Alert kind="warning" testId={`${testId}-locked`}>
            <p className="m-0">{lockedText(entry.lockedFor)}</p>
          </Alert>
        )}
      </div>
      <LiveAlert message={entry.message} testId={`${testId}-notice`} />
    </>
  );
}

export interface CodeStepFormProps {
  t: T;
  entry: CodeEntry;
  /**
   * The step's texts' namespace: `<ns>.code` (the label), `<ns>.submit`, `<ns>.lockedOut`; each
   * can be given instead. Also the default of the first box's id (`<ns>-code`) and the test ids.
   */
  ns: string;
  id?: string;
  testId?: string;
  label?: string;
  hint: string;
  submitLabel?: string;
  lockedText?: (seconds: number) => string;
  onSubmit: (code: string) => void;
  /** Fields after the code (remember this device). */
  children?: ReactNode;
  /** The field itself when it is not six digits (the backup code, a password). */
  field?: ReactNode;
  /** Whether the field's value is complete (by default: six digits). */
  complete?: boolean;
  /** A block button (the sign-in cards) or one at its width (the account's forms). */
  block?: boolean;
  className?: string;
}

/** Messages, the code boxes (or the step's own field), the step's extras and the submit button. */
export function CodeStepForm(p: CodeStepFormProps) {
  const { entry, t, ns } = p;
  const id = p.id ?? `${ns}-code`;
  const lockedText = p.lockedText ?? ((seconds: number) => t(`${ns}.lockedOut`, { seconds }));
  const complete = p.complete ?? entry.code.length === CODE_LENGTH;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (entry.busy || entry.lockedFor > 0 || !complete) return;
    p.onSubmit(entry.code);
  };
  return (
    <div className={p.className}>
      <StepMessages entry={entry} lockedText={lockedText} testId={p.testId ?? ns} />
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        {p.field ?? (
          <CodeInput t={t} id={id} label={p.label ?? t(`${ns}.code`)} hint={p.hint} value={entry.code} onChange={entry.setCode} error={entry.fieldError} inputRef={entry.inputRef} />
        )}
        {p.children}
        <div>
          {/* Locked: the warning above says until when; otherwise the hint says what is missing. */}
          <button type="submit" {...whyDisabled(`${id}-why`, entry.lockedFor === 0 && !complete && t('kit.codeIncomplete'), entry.busy)} disabled={entry.busy || entry.lockedFor > 0 || !complete} className={buttonClass('primary', { block: p.block ?? true })}>
            {p.submitLabel ?? t(`${ns}.submit`)}
          </button>
          <WhyHint id={`${id}-why`} reason={entry.lockedFor === 0 && !complete && t('kit.codeIncomplete')} busy={entry.busy} className="mt-1" />
        </div>
      </form>
    </div>
  );
}

/** "Resend" (`<ns>.resend`) with the time left before it may be used (`<ns>.resendIn`). */
export function ResendRow({ t, ns, entry, onResend }: { t: T; ns: string; entry: CodeEntry; onResend: () => void }) {
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-2">
      <button type="button" onClick={onResend} disabled={entry.busy || entry.cooldown > 0} aria-describedby={entry.cooldown > 0 ? `${ns}-resend-why` : undefined} className={buttonClass('link')}>
        {t(`${ns}.resend`)}
      </button>
      {/* The countdown is why Resend is disabled (decision 0047). */}
      {entry.cooldown > 0 && (
        <span id={`${ns}-resend-why`} className="text-sm text-slate-700" data-testid="resend-countdown">
          {t(`${ns}.resendIn`, { time: formatCountdown(entry.cooldown) })}
        </span>
      )}
    </div>
  );
}

/** The way out of a sign-in step: the login page with the step's query (continue, Outlook's). */
export function BackToLogin({ t, basePath, query }: { t: T; basePath: string; query: string }) {
  return (
    <p className="mb-0 mt-4">
      <a href={`${basePath}/login${query}`} className="text-blue-800 underline">
        {t('common.backToLogin')}
      </a>
    </p>
  );
}
