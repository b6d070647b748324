// A list's state in its page URL (search, sort, order, page, perPage), so searching, sorting and
// paging are links and GET forms that work before and without JavaScript. No zod here: the kit's
// table (src/islands/kit/DataTable.tsx) imports it into islands that have no schemas.

/** Spec 02 section 9: page sizes 5, 10, 25, 100; 25 by default. */
export const PAGE_SIZES = [5, 10, 25, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;

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

