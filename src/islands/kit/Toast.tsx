// The snackbar ("toast") with the spec's durations (spec 02 section 9: 3000 ms by default; errors
// stay 10 s so there is time to read them), held while hovered or focused.
//
// It is drawn in the browser's top layer as a manual popover, so it shows above a modal dialog's
// backdrop: a message about a dialog's action ("cannot remove the last admin") was drawn under
// it. A dialog that opens later goes above it in the top layer; the toast raises itself again
// when a dialog opens (kit/Dialog.tsx sends DIALOG_OPENED_EVENT). The element is on the page
// from the first paint (a live region), and shown as a popover only while it holds a message.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { T } from '../../shared/i18n';
import { DIALOG_OPENED_EVENT } from './Dialog';

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

type PopoverElement = HTMLElement & { showPopover?: () => void; hidePopover?: () => void };

/** Shows `el` on top of the top layer (again, if it was there below a newer dialog). */
function raise(el: PopoverElement) {
  if (typeof el.showPopover !== 'function') return;
  if (el.matches(':popover-open')) el.hidePopover?.();
  el.showPopover();
}

export function Toast({ t, toast, onClose }: { t: T; toast: ToastMessage | null; onClose: () => void }) {
  const [held, setHeld] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!toast || held) return;
    const id = setTimeout(onClose, toast.timeoutMs);
    return () => clearTimeout(id);
  }, [toast, held]);
  useEffect(() => setHeld(false), [toast?.id]);
  useEffect(() => {
    const el = ref.current as PopoverElement | null;
    if (!el) return;
    if (!toast) {
      if (typeof el.hidePopover === 'function' && el.matches(':popover-open')) el.hidePopover();
      return;
    }
    raise(el);
    const onDialog = () => raise(el);
    document.addEventListener(DIALOG_OPENED_EVENT, onDialog);
    return () => document.removeEventListener(DIALOG_OPENED_EVENT, onDialog);
  }, [toast?.id]);
  const style = toast?.kind === 'error' ? 'border-red-700 bg-red-50 text-red-900' : 'border-green-700 bg-green-50 text-green-900';
  return (
    <div
      ref={ref}
      popover="manual"
      aria-live="polite"
      className="fixed bottom-4 right-4 left-auto top-auto m-0 max-w-md overflow-visible border-0 bg-transparent p-0"
      data-testid="toast-layer"
    >
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
}
