// The islands' modal dialog, on the native <dialog> element and showModal(): the browser makes the
// rest of the page inert (focus stays inside, Tab cycles within), closes on Escape and puts the
// dialog in the top layer. This component adds what the element leaves to us: a title that names
// it, focus on open where the caller wants it, and focus back to the opener when it closes, also
// when the dialog is removed from the page rather than closed.
//
// Server rendering: an open dialog is rendered as <dialog open> (shown in place, non-modal) with a
// backdrop, so the first paint is not blank; hydration upgrades it to a modal with showModal().
//
// Stacked dialogs (a confirmation opened from a form dialog): the browser puts each modal above
// the last and makes everything below inert; a shared stack (src/shared/dialog-stack.ts) records
// the order so that Escape closes the top one only, whatever order the effects ran in, and a
// toast (kit/Toast.tsx) is drawn inside the top one (everything outside a modal dialog is inert).
// https://html.spec.whatwg.org/multipage/interactive-elements.html#the-dialog-element
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { createDialogStack } from '../../shared/dialog-stack';

/** The open modal dialogs of this page, bottom first. */
export const openDialogs = createDialogStack<HTMLDialogElement>();
/** Sent on `document` after a dialog opened or closed (the toast moves into the top one). */
export const DIALOGS_CHANGED_EVENT = 'portal:dialogs-changed';

export interface DialogProps {
  open: boolean;
  /** id of the element that names the dialog (its title). */
  labelledBy: string;
  describedBy?: string;
  /**
   * Escape (or the browser's own close request) calls this; the caller then sets `open` false.
   * Without it the dialog cannot be dismissed that way (a step the user has to complete).
   */
  onDismiss?: () => void;
  /** Focus on open; by default the browser's choice (autofocus, else the first focusable control). */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Focus on close; by default the element that had the focus when the dialog opened. */
  returnFocus?: () => HTMLElement | null;
  className?: string;
  testId?: string;
  children: ReactNode;
}

const isServer = typeof window === 'undefined';

function selectionOf(el: HTMLInputElement | HTMLTextAreaElement): [number, number] | null {
  try {
    return el.selectionStart === null || el.selectionEnd === null ? null : [el.selectionStart, el.selectionEnd];
  } catch {
    return null; // email inputs have no selection API
  }
}

export default function Dialog(p: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const [upgraded, setUpgraded] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const shown = useRef(false);
  const openedEl = useRef<HTMLDialogElement | null>(null);
  const latest = useRef(p);
  latest.current = p;

  const restoreFocus = () => {
    // The element as it was opened: on unmount React has already cleared `ref`.
    if (openedEl.current) {
      openDialogs.close(openedEl.current);
      document.dispatchEvent(new Event(DIALOGS_CHANGED_EVENT));
    }
    openedEl.current = null;
    const target = latest.current.returnFocus?.() ?? opener.current;
    opener.current = null;
    shown.current = false;
    if (target?.isConnected) target.focus();
  };

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (p.open) {
      // A dialog the server rendered open may hold the focus already: the person was typing into
      // it before the script arrived (decision 0047). The field and its caret stay theirs.
      const typing = el.contains(document.activeElement) && document.activeElement !== el ? (document.activeElement as HTMLElement) : null;
      const caret = typing instanceof HTMLInputElement || typing instanceof HTMLTextAreaElement ? selectionOf(typing) : null;
      if (!el.matches(':modal')) {
        const active = document.activeElement;
        opener.current = active instanceof HTMLElement && active !== document.body && !el.contains(active) ? active : null;
        // The server's <dialog open> is non-modal; showModal() refuses an already open dialog.
        if (el.open) el.removeAttribute('open');
        el.showModal();
        shown.current = true;
        openedEl.current = el;
        openDialogs.open(el);
        document.dispatchEvent(new Event(DIALOGS_CHANGED_EVENT));
      }
      if (typing?.isConnected) {
        typing.focus();
        if (caret) (typing as HTMLInputElement).setSelectionRange(...caret);
      } else p.initialFocus?.current?.focus();
      setUpgraded(true);
    } else if (el.open) {
      el.close();
      restoreFocus();
    }
  }, [p.open]);

  // Removed while open (the caller stopped rendering it): give the focus back all the same.
  useEffect(() => () => {
    if (shown.current) restoreFocus();
  }, []);

  return (
    <>
      {p.open && !upgraded && <div aria-hidden="true" className="fixed inset-0 z-40 bg-black/50" />}
      <dialog
        ref={ref}
        // Only the server writes `open`; in the browser the element's own state rules (see above).
        open={isServer && p.open ? true : undefined}
        suppressHydrationWarning
        aria-labelledby={p.labelledBy}
        aria-describedby={p.describedBy}
        data-testid={p.testId}
        onCancel={(e) => {
          // Escape: the caller decides (and re-renders with open=false), or nothing happens; a
          // dialog with another above it stays.
          e.preventDefault();
          if (ref.current && openDialogs.list().includes(ref.current) && !openDialogs.isTop(ref.current)) return;
          latest.current.onDismiss?.();
        }}
        onClose={() => {
          const el = ref.current;
          // A close the caller did not ask for (the browser may skip a cancel event): follow it
          // through the caller, or reopen a dialog that cannot be dismissed.
          if (!el || el.open || !latest.current.open) return;
          if (latest.current.onDismiss) latest.current.onDismiss();
          else el.showModal();
        }}
        className={`fixed inset-0 z-50 m-auto h-fit max-h-[calc(100vh-2rem)] w-[calc(100%-2rem)] overflow-auto rounded-lg border-0 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-black/50 ${p.className ?? 'max-w-md'}`}
      >
        {p.children}
      </dialog>
    </>
  );
}
