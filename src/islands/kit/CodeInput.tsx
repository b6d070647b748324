// A one-time code as six boxes (spec 01 section 5: six digits). Typing a digit moves to the next
// box; Backspace on an empty box goes back and clears the one before; the arrow keys move; a
// pasted code (or an SMS autofill into the first box, autocomplete="one-time-code") fills the
// boxes from where it lands; full-width digits typed with a Japanese IME ("１２３") become
// half-width, and anything that is not a digit is dropped (src/shared/twofa/code-entry.ts). The boxes
// never hold a gap: focusing a box past the code's end moves to the first empty one.
//
// The first box carries the field's label (and the hint or error), the others "Digit n of 6".
import { useRef, type ClipboardEvent, type KeyboardEvent, type RefObject } from 'react';
import { backspaceInCode, CODE_LENGTH, typeIntoCode, type CodeEdit } from '../../shared/twofa/code-entry';
import type { T } from '../../shared/i18n';
import { FieldNote, noteId } from './Field';

export interface CodeInputProps {
  t: T;
  /** id of the first box (the label points at it). */
  id: string;
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  /** The first box (focused on arrival, selected after a wrong code). */
  inputRef?: RefObject<HTMLInputElement | null>;
  disabled?: boolean;
  length?: number;
}

export default function CodeInput(p: CodeInputProps) {
  const length = p.length ?? CODE_LENGTH;
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  // The code as last changed here: a focus moved during a change must not see the old one.
  const current = useRef(p.value);
  current.current = p.value;
  const describedBy = noteId(p.id, p.error);

  const apply = (edit: CodeEdit) => {
    current.current = edit.value;
    if (edit.value !== p.value) p.onChange(edit.value);
    const box = boxes.current[edit.focus];
    if (box && document.activeElement !== box) box.focus();
    else box?.select();
  };

  const onInput = (i: number, text: string) => {
    const old = current.current[i] ?? '';
    // A box whose digit was not selected gets the new one beside it: keep only what was typed.
    const typed = old && text.length === 2 && text.includes(old) ? text.replace(old, '') : text;
    if (typed === '') return apply({ value: current.current.slice(0, i) + current.current.slice(i + 1), focus: i });
    apply(typeIntoCode(current.current, i, typed, length));
  };

  const onKeyDown = (i: number, e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Backspace') {
      e.preventDefault();
      apply(backspaceInCode(current.current, i));
    } else if (e.key === 'ArrowLeft' && i > 0) {
      e.preventDefault();
      boxes.current[i - 1]?.focus();
    } else if (e.key === 'ArrowRight' && i < Math.min(current.current.length, length - 1)) {
      e.preventDefault();
      boxes.current[i + 1]?.focus();
    }
  };

  const onPaste = (i: number, e: ClipboardEvent<HTMLInputElement>) => {
    e.preventDefault();
    apply(typeIntoCode(current.current, i, e.clipboardData.getData('text'), length));
  };

  const onFocus = (i: number) => {
    const end = Math.min(current.current.length, length - 1);
    if (i > end) boxes.current[end]?.focus();
    else boxes.current[i]?.select();
  };

  return (
    <div>
      <label htmlFor={p.id} id={`${p.id}-label`} className="font-medium">
        {p.label}
      </label>
      <div className="mt-1 flex gap-2" data-testid="code-boxes" data-code={p.value}>
        {Array.from({ length }, (_, i) => (
          <input
            key={i}
            ref={(el) => {
              boxes.current[i] = el;
              if (i === 0 && p.inputRef) p.inputRef.current = el;
            }}
            id={i === 0 ? p.id : `${p.id}-${i + 1}`}
            type="text"
            inputMode="numeric"
            autoComplete={i === 0 ? 'one-time-code' : 'off'}
            aria-label={i === 0 ? undefined : p.t('kit.digit', { n: i + 1, count: length })}
            aria-invalid={p.error ? true : undefined}
            aria-describedby={describedBy}
            value={p.value[i] ?? ''}
            disabled={p.disabled}
            onChange={(e) => onInput(i, e.target.value)}
            onKeyDown={(e) => onKeyDown(i, e)}
            onPaste={(e) => onPaste(i, e)}
            onFocus={() => onFocus(i)}
            className="h-12 w-11 min-w-0 rounded border border-slate-500 text-center font-mono text-xl disabled:bg-slate-100"
          />
        ))}
      </div>
      <FieldNote id={p.id} hint={p.hint} error={p.error} />
    </div>
  );
}
