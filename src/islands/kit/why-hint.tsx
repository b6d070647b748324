// Why a button is disabled (issue 27 part 7, decision 0047). The Digital Agency design system
// asks that a disabled button say why, or stay enabled and explain on press: a greyed-out button
// alone leaves the person guessing. One pattern for every island: the button names the hint with
// aria-describedby (a screen reader reads it with the button) and the hint sits under it in the
// page's small text. A button disabled only while its own request runs needs no hint.
import type { ReactNode } from 'react';

/** The props a button spreads: disabled, and while disabled, described by the hint `id`. */
export function whyDisabled(id: string, reason: string | null | false | undefined, busy = false): { disabled: boolean; 'aria-describedby'?: string } {
  const why = Boolean(reason) && !busy;
  return { disabled: busy || Boolean(reason), 'aria-describedby': why ? id : undefined };
}

/** The hint under (or beside) the button; nothing when there is no reason or while busy. */
export function WhyHint({ id, reason, busy = false, className = '', testId = 'why-hint' }: { id: string; reason: ReactNode; busy?: boolean; className?: string; testId?: string }) {
  if (!reason || busy) return null;
  return (
    <p id={id} className={`m-0 text-slate-700 ${className.includes('text-xs') ? '' : 'text-sm'} ${className}`} data-testid={testId}>
      {reason}
    </p>
  );
}
