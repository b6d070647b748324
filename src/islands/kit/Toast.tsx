// The snackbar ("toast") with the spec's durations (spec 02 section 9: 3000 ms by default; errors
// stay 10 s so there is time to read them), held while hovered or focused.
//
// While a modal dialog is open everything outside it is inert and under its backdrop: a message
// about a dialog's action ("cannot remove the last admin") was drawn under the backdrop. So the
// toast is rendered (a React portal) inside the topmost open kit dialog, fixed to the viewport's
// corner above the dialog's content, where it can be read, hovered and closed; with no dialog
// open it stays where the island put it. kit/Dialog.tsx announces opens and closes
// (DIALOGS_CHANGED_EVENT) and keeps the stack. The live region is on the page from the first
// paint, so screen readers announce what later appears in it.
import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { T } from '../../shared/i18n';
import { DIALOGS_CHANGED_EVENT, openDialogs } from './Dialog';

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

/** The topmost open dialog (the toast's place while one is open), or null. */
function useTopDialog(): HTMLElement | null {
  const [top, setTop] = useState<HTMLElement | null>(null);
  useEffect(() => {
    const update = () => {
      const open = openDialogs.list();
      setTop(open.length > 0 ? open[open.length - 1]! : null);
    };
    update();
    document.addEventListener(DIALOGS_CHANGED_EVENT, update);
    return () => document.removeEventListener(DIALOGS_CHANGED_EVENT, update);
  }, []);
  return top;
}

export function Toast({ t, toast, onClose }: { t: T; toast: ToastMessage | null; onClose: () => void }) {
  const [held, setHeld] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);
  const dialog = useTopDialog();
  useEffect(() => {
    if (!toast || held) return;
    const id = setTimeout(onClose, toast.timeoutMs);
    return () => clearTimeout(id);
  }, [toast, held]);
  useEffect(() => setHeld(false), [toast?.id]);
  const style = toast?.kind === 'error' ? 'border-red-700 bg-red-50 text-red-900' : 'border-green-700 bg-green-50 text-green-900';
  const layer = (
    <div aria-live="polite" className="fixed bottom-4 right-4 z-50 max-w-md text-left" data-testid="toast-layer" data-in-dialog={dialog ? 'true' : undefined}>
      {toast && (
        <div
          key={toast.id}
          ref={boxRef}
          role={toast.kind === 'error' ? 'alert' : 'status'}
          onMouseEnter={() => setHeld(true)}
          onMouseLeave={() => setHeld(false)}
          onFocus={() => setHeld(true)}
          onBlur={(e) => {
            if (!boxRef.current?.contains(e.relatedTarget as Node | null)) setHeld(false);
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
  return dialog ? createPortal(layer, dialog) : layer;
}
