// A time as people say it ("5 minutes ago", "5 分前") with the full timestamp, in the tenant's
// zone and labelled ("2026/11/25 (水) 07:23:12 日本時間"), in a tooltip that a pointer (hover) and
// the keyboard (focus) both open, and for screen readers as its description. Rendered on the
// server from the server's clock (`now`); once hydrated it counts from the browser's clock and
// refreshes every minute. Where nothing hydrates (server-only pages) it stays as rendered.
import { useEffect, useId, useState } from 'react';
import { formatDateTime, TENANT_TIME_ZONE, timeFromNow } from '../../shared/dates';
import { zoneLabelKey } from '../../shared/time-zone';
import { getT, type Lang } from '../../shared/i18n';

export interface RelativeTimeProps {
  value: number | string;
  /** The clock the first render uses (the server's, so hydration matches). */
  now: number;
  lang: Lang;
  timeZone?: string;
  testId?: string;
}

/** "2026/11/25 (水) 07:23:12 日本時間": a full timestamp with its zone named. */
export function fullTimestamp(value: number | string | Date, lang: Lang, timeZone: string = TENANT_TIME_ZONE): string {
  return `${formatDateTime(value, lang, timeZone)} ${getT(lang)(zoneLabelKey(timeZone))}`;
}

export default function RelativeTime({ value, now: initialNow, lang, timeZone = TENANT_TIME_ZONE, testId = 'relative-time' }: RelativeTimeProps) {
  const [now, setNow] = useState(initialNow);
  const id = useId();
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return <span>-</span>;
  const full = fullTimestamp(d, lang, timeZone);
  return (
    <span className="rt">
      <time dateTime={d.toISOString()} tabIndex={0} aria-describedby={id} className="cursor-help underline decoration-dotted" data-testid={testId}>
        {timeFromNow(d.getTime(), now, lang)}
      </time>
      <span role="tooltip" id={id} className="rt-tip" data-testid={`${testId}-tooltip`}>
        {full}
      </span>
    </span>
  );
}
