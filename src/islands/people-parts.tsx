// Pieces the people screens share (spec 02 "User management", "Deactivated users", "Departments"):
// the table's look, sortable column headers and the pager as plain links (so sorting and paging
// work before and without JavaScript), the "deleting" chip and its polling, the delete call, and
// dates. Not an island itself.
import { useEffect, type ReactNode } from 'react';
import { api } from '../shared/api';
import { formatDateTime } from '../shared/dates';
import type { Lang, T } from '../shared/i18n';
import { listQueryString, nextSort, PAGE_SIZES, pageCount, timeFromNow, type ListQuery } from '../shared/people-ui';

export const TABLE_WRAP = 'overflow-x-auto rounded-lg bg-white shadow';
export const TABLE = 'w-full border-collapse text-left text-sm';
export const TH = 'whitespace-nowrap px-3 py-2 font-semibold';
export const TD = 'px-3 py-2 align-middle';
export const LINK = 'text-blue-800 underline';

export function SortHeader({
  t,
  label,
  column,
  query,
  dateColumns,
  path,
  defaults,
}: {
  t: T;
  label: string;
  column: string;
  query: ListQuery;
  dateColumns: readonly string[];
  path: string;
  defaults?: ListQuery;
}) {
  const active = query.sort === column;
  const href = `${path}${listQueryString(nextSort(query, column, dateColumns), defaults)}`;
  return (
    <th scope="col" className={TH} aria-sort={active ? (query.dir === 'asc' ? 'ascending' : 'descending') : undefined}>
      <a href={href} className="text-slate-900 no-underline hover:underline" data-testid={`sort-${column}`}>
        {label}
        <span aria-hidden="true" className="ml-1 text-slate-700">
          {active ? (query.dir === 'asc' ? '▲' : '▼') : '↕'}
        </span>
        <span className="sr-only">
          {' '}
          {t(active ? (query.dir === 'asc' ? 'people.list.sortedAsc' : 'people.list.sortedDesc') : 'people.list.sortable')}
        </span>
      </a>
    </th>
  );
}

/** "1-25 of 120", previous and next page, and the page sizes (spec 02 section 9: 5, 10, 25, 100). */
export function Pager({
  t,
  query,
  total,
  path,
  sizes = PAGE_SIZES,
  defaults,
}: {
  t: T;
  query: ListQuery;
  total: number;
  path: string;
  sizes?: readonly number[];
  defaults?: ListQuery;
}) {
  const pages = pageCount(total, query.perPage);
  const first = total === 0 ? 0 : (query.page - 1) * query.perPage + 1;
  const last = Math.min(total, query.page * query.perPage);
  const href = (patch: Partial<ListQuery>) => `${path}${listQueryString({ ...query, ...patch }, defaults)}`;
  const pageLink = (page: number, label: string, testId: string) =>
    page < 1 || page > pages || page === query.page ? (
      <span aria-disabled="true" className="rounded border border-slate-300 px-3 py-1 text-slate-600">
        {label}
      </span>
    ) : (
      <a href={href({ page })} className="rounded border border-slate-600 bg-white px-3 py-1 text-slate-900 no-underline hover:bg-slate-100" data-testid={testId}>
        {label}
      </a>
    );
  return (
    <nav aria-label={t('people.list.pagination')} className="mt-3 flex flex-wrap items-center justify-between gap-3 text-sm">
      {sizes.length > 1 ? (
        <div className="flex items-center gap-2">
          <span id="page-size-label">{t('people.list.perPage')}</span>
          <ul aria-labelledby="page-size-label" className="m-0 flex list-none gap-1 p-0">
            {sizes.map((n) => (
              <li key={n}>
                <a
                  href={href({ perPage: n, page: 1 })}
                  aria-current={n === query.perPage ? 'true' : undefined}
                  aria-label={t('people.list.perPageOption', { count: n })}
                  className={`inline-block rounded px-2 py-1 no-underline ${n === query.perPage ? 'bg-blue-800 text-white' : 'text-blue-800 hover:bg-slate-100'}`}
                >
                  {n}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <span />
      )}
      <div className="flex items-center gap-2">
        <span data-testid="pager-range">{t('people.list.range', { first, last, total })}</span>
        {pageLink(query.page - 1, t('people.list.previous'), 'pager-previous')}
        {pageLink(query.page + 1, t('people.list.next'), 'pager-next')}
      </div>
    </nav>
  );
}

/** How often a list with a "deleting" row is read again until the deletion job has finished. */
const DELETING_POLL_MS = 1500;

/** Reads the list again while one of its rows is being deleted in the background. */
export function useDeletingPoll(rows: { operationStatus: string | null }[], hydrated: boolean, reload: () => Promise<unknown>): void {
  const deleting = rows.some((u) => u.operationStatus === 'deleting');
  useEffect(() => {
    if (!hydrated || !deleting) return;
    const id = setInterval(() => void reload(), DELETING_POLL_MS);
    return () => clearInterval(id);
  }, [hydrated, deleting]);
}

/**
 * DELETE admin/users/{id} (spec 02 section 7): `started` when the server answers 202 (the job goes
 * on; the row shows the chip), `done` on 204, otherwise the message to show.
 */
export async function deleteUser(basePath: string, t: T, id: number): Promise<{ kind: 'started' } | { kind: 'done' } | { kind: 'error'; text: string }> {
  const r = await api(basePath, 'DELETE', `admin/users/${id}`);
  if (r.status === 202) return { kind: 'started' };
  if (r.ok) return { kind: 'done' };
  return { kind: 'error', text: t(r.data.message === 'cannot-delete-last-admin' ? 'people.errors.cannotDeleteLastAdmin' : 'errors.generic') };
}

export function DeletingChip({ t }: { t: T }) {
  return (
    <span className="ml-2 inline-block rounded-full border border-amber-700 bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900" data-testid="deleting-chip">
      {t('people.users.deleting')}
    </span>
  );
}

/** An existing account invited to this tenant that has not accepted yet. */
export function PendingChip({ t }: { t: T }) {
  return (
    <span className="inline-block rounded-full border border-slate-600 bg-slate-50 px-2 py-0.5 text-xs font-medium text-slate-800" data-testid="pending-chip">
      {t('people.users.invitationPending')}
    </span>
  );
}

export function DateCell({ value, lang, timeZone }: { value: number | string | null; lang: Lang; timeZone?: string }) {
  if (value === null || value === undefined) return <span>-</span>;
  const d = new Date(value);
  return <time dateTime={d.toISOString()}>{formatDateTime(d, lang, timeZone)}</time>;
}

/** Time from now, with the full timestamp as a tooltip and for screen readers. */
export function RelativeTime({ value, now, lang, timeZone }: { value: number | string; now: number; lang: Lang; timeZone?: string }) {
  const d = new Date(value);
  const full = formatDateTime(d, lang, timeZone);
  return (
    <time dateTime={d.toISOString()} title={full} className="cursor-help underline decoration-dotted" data-testid="last-active">
      {timeFromNow(d.getTime(), now, lang)}
      <span className="sr-only"> ({full})</span>
    </time>
  );
}

export function EmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-3 py-6 text-center text-slate-700">
        {children}
      </td>
    </tr>
  );
}

/** Upload with progress (fetch has no upload progress): multipart, same-origin, X-Requested-With. */
export function uploadWithProgress(
  url: string,
  form: FormData,
  onProgress: (percent: number) => void,
): Promise<{ status: number; data: Record<string, unknown> & { message?: string; error?: string } }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let data: Record<string, unknown> = {};
      try {
        data = JSON.parse(xhr.responseText || '{}');
      } catch {
        data = {};
      }
      resolve({ status: xhr.status, data });
    };
    xhr.onerror = () => resolve({ status: 0, data: {} });
    xhr.send(form);
  });
}
