// Dates as the product shows them (spec 01 section 9: "yyyy/M/d (E) HH:mm:ss"), formatted by
// Intl.DateTimeFormat in the reader's language; only the order of the parts is ours.
import type { Lang } from './i18n';

/**
 * The zone every date is shown in: the tenant's. Tenants have no time-zone setting yet and the
 * product's customers are in Japan, so it is Tokyo time, on the server and in the browser alike,
 * whatever zone the browser is in, and labelled. Issue 14 found the users table and
 * devices in the browser's zone beside an audit log in Tokyo time (decision 0032). Its name beside a
 * time is src/shared/time-zone.ts (apart, so only the islands that show it carry its texts).
 */
export const TENANT_TIME_ZONE = 'Asia/Tokyo';
/** @deprecated the same zone as TENANT_TIME_ZONE (kept for callers not yet moved). */
export const SERVER_TIME_ZONE = TENANT_TIME_ZONE;

const LOCALES: Record<Lang, string> = { ja: 'ja-JP', en: 'en-US' };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(lang: Lang, timeZone: string): Intl.DateTimeFormat {
  const key = `${lang}|${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(LOCALES[lang], {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(key, f);
  }
  return f;
}

// The same instants come back on every render of a list (created, last active), and
// formatToParts is the slow part of a row: the last few thousand answers are kept, per language
// and zone. Only the text of a date is kept; nothing here decides anything.
const recent = new Map<string, string>();
const RECENT_LIMIT = 4096;

/** "2026/4/27 (月) 09:05:03" in Japanese, "2026/4/27 (Mon) 09:05:03" in English. */
export function formatDateTime(value: string | number | Date, lang: Lang, timeZone: string = SERVER_TIME_ZONE): string {
  const date = value instanceof Date ? value : new Date(value);
  const ms = date.getTime();
  if (Number.isNaN(ms)) return '';
  const key = `${lang}|${timeZone}|${Math.floor(ms / 1000)}`;
  const known = recent.get(key);
  if (known !== undefined) return known;
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of formatter(lang, timeZone).formatToParts(date)) parts[p.type] = p.value;
  const text = `${parts.year}/${parts.month}/${parts.day} (${parts.weekday}) ${parts.hour}:${parts.minute}:${parts.second}`;
  if (recent.size >= RECENT_LIMIT) recent.clear();
  recent.set(key, text);
  return text;
}

/** "2026/4/27 (月)": the date part alone. */
export function formatDate(value: string | number | Date, lang: Lang, timeZone: string = TENANT_TIME_ZONE): string {
  const full = formatDateTime(value, lang, timeZone);
  return full.slice(0, full.lastIndexOf(' '));
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

// Made once per language: a formatter costs far more to make than to use.
const relative: Partial<Record<Lang, Intl.RelativeTimeFormat>> = {};

/** "3 hours ago" / "3 時間前": the largest whole unit, by Intl.RelativeTimeFormat. */
export function timeFromNow(value: number, now: number, lang: Lang): string {
  const diff = value - now;
  const abs = Math.abs(diff);
  const fmt = (relative[lang] ??= new Intl.RelativeTimeFormat(LOCALES[lang], { numeric: 'auto' }));
  for (const [unit, ms] of UNITS) {
    if (abs >= ms || unit === 'second') return fmt.format(Math.round(diff / ms) || 0, unit);
  }
  return fmt.format(0, 'second');
}

/** A countdown as mm:ss ("00:59"), for the resend cooldown (spec 01 section 4). */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
