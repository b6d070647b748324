// What a person typed before the island's script arrived (issue 27 part 1, decision 0044).
//
// The server's markup is a working form: on a slow connection people type into it before React
// hydrates it. Hydration leaves the DOM's values alone but the island's state still holds the
// server's initial values, so the next render (often the one `useHydrated` causes right away) wrote
// them back: the typed email vanished and "Next" said the field was required. This wrapper, put
// around every island by the browser entry (src/client.ts), adopts once, right after the island's
// first commit, whatever differs from the server's markup: text and textarea values, choices of a
// select, checkboxes and radios; then it puts back the focus and the caret. Every island and every
// kit input gets it without a line of its own.
//
// How: the value is handed to React as a real input event (the way testing-library's fireEvent
// does): React's value tracker is first told the server's value through the element's own `value`
// setter, the typed value is written through the prototype's setter, and `input` (or `change`, or a
// click for a checkbox) is dispatched, so the island's onChange runs with the typed text.
import { useLayoutEffect, type ReactNode } from 'react';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const SKIPPED_TYPES = new Set(['hidden', 'file', 'submit', 'button', 'reset', 'image']);

function setNative(el: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, value);
}

function selection(el: Control): [number, number, 'forward' | 'backward' | 'none'] | null {
  try {
    if (el instanceof HTMLSelectElement || el.selectionStart === null || el.selectionEnd === null) return null;
    return [el.selectionStart, el.selectionEnd, el.selectionDirection ?? 'none'];
  } catch {
    // email and number inputs have no selection API.
    return null;
  }
}

/** Hands the island what the person changed in `root` before it hydrated. Returns how many controls. */
export function adoptTyped(root: HTMLElement): number {
  const focused = document.activeElement;
  let adopted = 0;
  for (const el of root.querySelectorAll<Control>('input, textarea, select')) {
    if (el.disabled) continue;
    if (el instanceof HTMLSelectElement) {
      if (![...el.options].some((o) => o.selected !== o.defaultSelected)) continue;
      el.dispatchEvent(new Event('change', { bubbles: true }));
      adopted++;
      continue;
    }
    if (el instanceof HTMLInputElement && SKIPPED_TYPES.has(el.type)) continue;
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
      if (el.checked === el.defaultChecked) continue;
      if (el.type === 'radio' && !el.checked) continue; // the checked one of its group is adopted
      const wanted = el.checked;
      el.checked = el.defaultChecked; // through React's tracker: it now knows the server's state
      if (el.checked !== wanted) el.click(); // toggles back and runs the island's onChange
      adopted++;
      continue;
    }
    if (el.value === el.defaultValue) continue;
    const typed = el.value;
    const caret = el === focused ? selection(el) : null;
    el.value = el.defaultValue; // through React's tracker
    setNative(el, typed);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    if (caret) el.setSelectionRange(...caret);
    adopted++;
  }
  // The island may have replaced the element that had the focus; give it to its namesake.
  if (focused instanceof HTMLElement && !focused.isConnected) {
    const name = focused.getAttribute('name');
    (document.getElementById(focused.id) ?? (name ? root.querySelector<HTMLElement>(`[name="${CSS.escape(name)}"]`) : null))?.focus();
  }
  return adopted;
}

/** Wraps an island (no element of its own, so hydration sees the island's markup alone). */
export function AdoptTyped({ root, children }: { root: HTMLElement; children?: ReactNode }) {
  // A layout effect of the parent runs after the island's own and before any re-render they ask
  // for, so the island's next render already holds the typed values.
  useLayoutEffect(() => {
    adoptTyped(root);
  }, [root]);
  return children;
}
