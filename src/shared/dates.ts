// Dates as the product shows them (spec 01 section 9: "yyyy/M/d (E) HH:mm:ss"), formatted by
// Intl.DateTimeFormat in the reader's language; only the order of the parts is ours.
import type { Lang } from './i18n';

/**
 * The zone a server-rendered date is shown in. Users have no time-zone setting; the product's
 * customers are in Japan, so the server renders Tokyo time and the browser switches to its own
 * zone once an island has hydrated (the first render must match the server's HTML).
 */
export const SERVER_TIME_ZONE = 'Asia/Tokyo';

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

/** "2026/4/27 (月) 09:05:03" in Japanese, "2026/4/27 (Mon) 09:05:03" in English. */
export function formatDateTime(value: string | number | Date, lang: Lang, timeZone: string = SERVER_TIME_ZONE): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of formatter(lang, timeZone).formatToParts(date)) parts[p.type] = p.value;
  return `${parts.year}/${parts.month}/${parts.day} (${parts.weekday}) ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** The browser's own time zone, or the server's when the browser does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || SERVER_TIME_ZONE;
  } catch {
    return SERVER_TIME_ZONE;
  }
}

/** A countdown as mm:ss ("00:59"), for the resend cooldown (spec 01 section 4). */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
