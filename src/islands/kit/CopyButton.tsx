// Copies a text to the clipboard and says so beside the button (a status), or that it could not
// (an alert: the browser refused, or the page is not a secure context). For values a user
// carries elsewhere: the authenticator key, SP values, URLs.
import { useEffect, useState } from 'react';
import type { T } from '../../shared/i18n';
import { buttonClass, type ButtonVariant } from './Button';

export interface CopyButtonProps {
  t: T;
  text: string;
  /** The accessible name ("Copy the key"); the visible word is "Copy". */
  label: string;
  variant?: ButtonVariant;
  testId?: string;
  /** Called after a copy that worked (or did not): the caller may show its own toast instead. */
  onCopied?: (ok: boolean) => void;
  /** The caller says what happened (a toast): no status beside the button. */
  quiet?: boolean;
}

export default function CopyButton({ t, text, label, variant = 'small', testId, onCopied, quiet = false }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const id = setTimeout(() => setState('idle'), 3000);
    return () => clearTimeout(id);
  }, [state]);
  const copy = async () => {
    let ok = true;
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      ok = false;
    }
    setState(ok ? 'copied' : 'failed');
    onCopied?.(ok);
  };
  return (
    <span className="inline-flex items-center gap-2">
      <button type="button" aria-label={label} onClick={() => void copy()} className={buttonClass(variant)} data-testid={testId}>
        {t('kit.copy')}
      </button>
      {!quiet && (
        <span aria-live="polite" className={`text-sm ${state === 'failed' ? 'text-red-800' : 'text-green-900'}`}>
          {state === 'copied' ? t('kit.copied') : state === 'failed' ? t('kit.copyFailed') : ''}
        </span>
      )}
    </span>
  );
}
