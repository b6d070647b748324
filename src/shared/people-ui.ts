// Browser-side helpers of the people screens (spec 02 sections 2, 5 and 9): list paging and
// sorting in the page URL, "time from now", and the CSV checks made before an upload. The server
// decides again on everything here; these only spare the user a round trip.
import type { Lang } from './i18n';

import { DEFAULT_PAGE_SIZE, IMPORT_MAX_BYTES, IMPORT_SAMPLE_FILENAME, PAGE_SIZES } from './people-schemas';

export { DEFAULT_PAGE_SIZE, PAGE_SIZES };
/** Spec 02 section 9: CSV import at most 50 MB. */
export const MAX_CSV_BYTES = IMPORT_MAX_BYTES;
/** Spec 02 section 9: the sample's file name. */
export const SAMPLE_CSV_NAME = IMPORT_SAMPLE_FILENAME;

export type SortDir = 'asc' | 'desc';

/**
 * The list state the users screen keeps in its URL (so search, sort and paging work without JS),
 * with the parameter names of GET /admin/users: search, sort, order, page, perPage.
 */
export interface ListQuery {
  q: string;
  sort: string;
  dir: SortDir;
  page: number;
  perPage: number;
}

export const DEFAULT_LIST_QUERY: ListQuery = { q: '', sort: 'created_at', dir: 'desc', page: 1, perPage: DEFAULT_PAGE_SIZE };

/** Reads the list state from a URL's query, falling back to the defaults for anything odd. */
export function readListQuery(params: URLSearchParams, sortable: readonly string[], defaults: ListQuery = DEFAULT_LIST_QUERY): ListQuery {
  const q = (params.get('search') ?? '').trim().slice(0, 255);
  const sortParam = params.get('sort');
  const sort = sortParam && sortable.includes(sortParam) ? sortParam : defaults.sort;
  const dirParam = params.get('order');
  const dir: SortDir = dirParam === 'asc' || dirParam === 'desc' ? dirParam : defaults.dir;
  const perPageParam = Number(params.get('perPage'));
  const perPage = (PAGE_SIZES as readonly number[]).includes(perPageParam) ? perPageParam : defaults.perPage;
  const pageParam = Number(params.get('page'));
  const page = Number.isInteger(pageParam) && pageParam >= 1 ? Math.min(pageParam, 1_000_000) : 1;
  return { q, sort, dir, page, perPage };
}

/** The query string of a list state, without the parts that equal the defaults ("" when none). */
export function listQueryString(query: ListQuery, defaults: ListQuery = DEFAULT_LIST_QUERY): string {
  const p = new URLSearchParams();
  if (query.q) p.set('search', query.q);
  if (query.sort !== defaults.sort || query.dir !== defaults.dir) {
    p.set('sort', query.sort);
    p.set('order', query.dir);
  }
  if (query.perPage !== defaults.perPage) p.set('perPage', String(query.perPage));
  if (query.page !== 1) p.set('page', String(query.page));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** The query string GET /admin/users takes: every part written out. */
export function listApiQuery(query: ListQuery): string {
  const p = new URLSearchParams({ sort: query.sort, order: query.dir, page: String(query.page), perPage: String(query.perPage) });
  if (query.q) p.set('search', query.q);
  return p.toString();
}

/** Clicking a column header: the same column flips the direction, another one starts descending for dates, ascending otherwise. */
export function nextSort(query: ListQuery, column: string, dateColumns: readonly string[]): ListQuery {
  if (query.sort === column) return { ...query, dir: query.dir === 'asc' ? 'desc' : 'asc', page: 1 };
  return { ...query, sort: column, dir: dateColumns.includes(column) ? 'desc' : 'asc', page: 1 };
}

export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

const LOCALES: Record<Lang, string> = { ja: 'ja-JP', en: 'en-US' };
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** "3 hours ago" / "3 時間前": the largest whole unit, by Intl.RelativeTimeFormat. */
export function timeFromNow(value: number, now: number, lang: Lang): string {
  const diff = value - now;
  const abs = Math.abs(diff);
  const fmt = new Intl.RelativeTimeFormat(LOCALES[lang], { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (abs >= ms || unit === 'second') return fmt.format(Math.round(diff / ms) || 0, unit);
  }
  return fmt.format(0, 'second');
}

/** What the server is told about a chosen file before it is sent (spec 02 sections 5 and 8). */
export function checkCsvFile(file: { name: string; size: number; type: string }): 'too-large' | 'wrong-type' | null {
  if (file.size > MAX_CSV_BYTES) return 'too-large';
  const name = file.name.toLowerCase();
  const typeOk = file.type === '' || file.type === 'text/csv' || file.type === 'text/plain' || file.type === 'application/vnd.ms-excel';
  if (!(name.endsWith('.csv') || name.endsWith('.txt')) || !typeOk) return 'wrong-type';
  return null;
}

/** For the header-mismatch dialog: each position, with whether the given header differs. */
export function compareHeaders(expected: readonly string[], given: readonly string[]): { expected: string | null; given: string | null; mismatch: boolean }[] {
  const n = Math.max(expected.length, given.length);
  const rows = [];
  for (let i = 0; i < n; i++) {
    const e = expected[i] ?? null;
    const g = given[i] ?? null;
    rows.push({ expected: e, given: g, mismatch: e === null || g === null || e.trim() !== g.trim() });
  }
  return rows;
}

/** The additional departments to send: without the main one, without repeats (spec 02 section 5). */
export function additionalWithoutMain(additional: readonly number[], main: number | null): number[] {
  return [...new Set(additional)].filter((id) => id !== main);
}
