// A labelled text input with its hint, or its error instead (then aria-invalid), under it: the
// one-line fields of the code steps (backup code, mobile number) and the note under the code
// boxes. The admin screens' TextField (admin-parts) adds the required mark and width options.
import type { InputHTMLAttributes, Ref } from 'react';

/** The hint, or the error in its place, with the ids a field's aria-describedby names. */
export function FieldNote({ id, hint, error }: { id: string; hint: string; error?: string | null }) {
  return error ? (
    <p id={`${id}-error`} className="m-0 mt-1 text-sm text-red-800">
      {error}
    </p>
  ) : (
    <p id={`${id}-hint`} className="m-0 mt-1 text-sm text-slate-700">
      {hint}
    </p>
  );
}

export const noteId = (id: string, error?: string | null) => (error ? `${id}-error` : `${id}-hint`);

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'onChange' | 'value'> {
  id: string;
  label: string;
  hint: string;
  error?: string | null;
  value: string;
  onChange: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
  /** The field is wrong although there is no error text under it (a refused code). */
  invalid?: boolean;
}

export default function Field({ id, label, hint, error, value, onChange, inputRef, invalid, className, ...input }: FieldProps) {
  return (
    <div>
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <input
        {...input}
        ref={inputRef}
        id={id}
        value={value}
        aria-invalid={error || invalid ? true : undefined}
        aria-describedby={noteId(id, error)}
        onChange={(e) => onChange(e.target.value)}
        className={`mt-1 block w-full rounded border border-slate-500 px-3 py-2 ${className ?? 'text-base'}`}
      />
      <FieldNote id={id} hint={hint} error={error} />
    </div>
  );
}
