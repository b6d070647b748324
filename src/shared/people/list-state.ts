// Browser-side helpers of the people screens (spec 02 sections 2, 5 and 9): list paging and
// sorting in the page URL, "time from now", and the CSV checks made before an upload. The server
// decides again on everything here; these only spare the user a round trip.
import { IMPORT_MAX_BYTES, IMPORT_SAMPLE_FILENAME } from './schemas';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../list-query';

export { DEFAULT_PAGE_SIZE, PAGE_SIZES };
/** Spec 02 section 9: CSV import at most 50 MB. */
export const MAX_CSV_BYTES = IMPORT_MAX_BYTES;
/** Spec 02 section 9: the sample's file name. */
export const SAMPLE_CSV_NAME = IMPORT_SAMPLE_FILENAME;

// The list state in the page URL (search, sort, paging) lives in list-query.ts, which the kit's
// table imports without the people schemas (and zod) behind this module.
export { DEFAULT_LIST_QUERY, listApiQuery, listQueryString, nextSort, pageCount, readListQuery, type ListQuery, type SortDir } from '../list-query';

/** Time from now lives with the other date helpers (src/shared/dates.ts); re-exported for the people screens. */
export { timeFromNow } from '../dates';

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
