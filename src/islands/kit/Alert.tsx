// Messages in the flow of a page: an alert for errors and warnings, a status for the rest, in a
// live region that is on the page from the first paint so screen readers announce what appears.
import type { ReactNode } from 'react';

export type AlertKind = 'error' | 'warning' | 'success' | 'info';

const STYLES: Record<AlertKind, string> = {
  error: 'border-red-700 bg-red-50 text-red-900',
  warning: 'border-amber-700 bg-amber-50 text-amber-900',
  success: 'border-green-700 bg-green-50 text-green-900',
  info: 'border-blue-700 bg-blue-50 text-blue-900',
};

export function alertClass(kind: AlertKind): string {
  return `m-0 mb-4 rounded border p-3 ${STYLES[kind]}`;
}

export interface AlertProps {
  kind: AlertKind;
  children: ReactNode;
  testId?: string;
  className?: string;
}

/** One message box (no live region of its own: put it in a `LiveRegion` or render it with the page). */
export function Alert({ kind, children, testId, className }: AlertProps) {
  return (
    <div role={kind === 'error' || kind === 'warning' ? 'alert' : 'status'} className={`${alertClass(kind)} ${className ?? ''}`} data-testid={testId}>
      {children}
    </div>
  );
}

export type Message = { kind: AlertKind; text: string } | null;

/** A live region holding at most one message. */
export default function LiveAlert({ message, testId, id }: { message: Message; testId?: string; id?: string }) {
  return (
    <div aria-live="polite">
      {message && (
        <Alert kind={message.kind} testId={testId}>
          {/* id: a disabled button may name this message as its reason (decision 0047). */}
          <p id={id} className="m-0">{message.text}</p>
        </Alert>
      )}
    </div>
  );
}

/** What a page says to a browser without JavaScript where its form cannot work without it. */
export function NeedsJavaScript({ text }: { text: string }) {
  return (
    <noscript>
      <p role="alert" className={alertClass('warning')} data-testid="needs-javascript">
        {text}
      </p>
    </noscript>
  );
}
