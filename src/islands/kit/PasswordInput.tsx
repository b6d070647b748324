// A password field with a Show/Hide toggle (spec 01 section 5: the password can be shown while
// typed). Used by every password field of the islands but the login form's, which stays within
// the login page's JavaScript budget with its own (decision 0029).
import { useState, type Ref } from 'react';
import type { T } from '../../shared/i18n';

const FIELD = 'block w-full min-w-0 rounded-l border border-slate-500 px-3 py-2 text-base read-only:bg-slate-100';

export interface PasswordInputProps {
  t: T;
  id: string;
  /** The field's name in a form that also posts without JavaScript. */
  name?: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  /** Error under the field (also makes the field aria-invalid). */
  error?: string | null;
  /** Further ids that describe the field (a checklist). */
  describedBy?: string;
  inputRef?: Ref<HTMLInputElement>;
  disabled?: boolean;
}

/**
 * A password field with a Show/Hide toggle: a toggle button, pressed while the password is shown
 * (aria-pressed), whose words say what a press does ("Show" while hidden, "Hide" while shown).
 */
export function PasswordInput(p: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  const errorId = `${p.id}-error`;
  const describedBy = [p.error ? errorId : null, p.describedBy].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={p.id} className="font-medium">
        {p.label}
      </label>
      <div className="mt-1 flex">
        <input
          ref={p.inputRef}
          id={p.id}
          name={p.name}
          type={visible ? 'text' : 'password'}
          autoComplete={p.autoComplete}
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          value={p.value}
          disabled={p.disabled}
          aria-invalid={p.error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => p.onChange(e.target.value)}
          className={FIELD}
        />
        <button
          type="button"
          aria-pressed={visible}
          aria-controls={p.id}
          aria-label={p.t(visible ? 'passwordForm.hideField' : 'passwordForm.showField', { field: p.label })}
          onClick={() => setVisible((v) => !v)}
          className={`inline-flex shrink-0 items-center gap-1 rounded-r border border-l-0 border-slate-500 px-3 text-sm text-blue-800 hover:bg-slate-100 ${visible ? 'bg-blue-50' : 'bg-white'}`}
        >
          <EyeIcon crossed={visible} />
          {p.t(visible ? 'passwordForm.hide' : 'passwordForm.show')}
        </button>
      </div>
      {p.error && (
        <p id={errorId} className="m-0 mt-1 text-sm text-red-800">
          {p.error}
        </p>
      )}
    </div>
  );
}


/** An eye (crossed out while the password is shown: a press hides it). Decorative: the words name the button. */
function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" />
      <circle cx="12" cy="12" r="3" />
      {crossed && <path d="M3 3l18 18" />}
    </svg>
  );
}
