// Pieces the people screens share (spec 02 "User management", "Deactivated users", "Departments"):
// the "deleting" chip and its polling, the delete call, and dates in the tenant's zone (the tables
// themselves are kit/DataTable.tsx). Not an island itself.
import { useEffect } from 'react';
import { api } from '../../shared/api';
import { formatDate, formatDateTime, TENANT_TIME_ZONE } from '../../shared/dates';
import type { Lang, T } from '../../shared/i18n';
import type { PersonRow } from './people-types';
import { fullTimestamp } from '../kit/RelativeTime';
import { errorText } from '../../shared/error-codes';

export const TABLE_WRAP = 'overflow-x-auto rounded-lg bg-white shadow';
export const LINK = 'text-blue-800 underline';

/** The pager moved to the kit's table (kit/DataTable.tsx); the people screens import it from here too. */
export { Pager } from '../kit/DataTable';

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
  return { kind: 'error', text: t(errorText(r.data.message)) };
}

/**
 * Delete a user from a list (users, deactivated users): once the server has answered, `answered`
 * (the dialog closes), then the row shows the "deleting" chip while the job runs, or the list is
 * read again, and the toast says which.
 */
export async function deleteFromList<L extends { data: PersonRow[] }>(o: {
  basePath: string;
  t: T;
  user: PersonRow;
  answered: () => void;
  setList: (update: (list: L) => L) => void;
  show: (kind: 'success' | 'error', text: string) => void;
  reload: () => Promise<unknown>;
}): Promise<void> {
  const { t, user } = o;
  const result = await deleteUser(o.basePath, t, user.id);
  o.answered();
  if (result.kind === 'started') {
    o.setList((l) => ({ ...l, data: l.data.map((x) => (x.id === user.id ? { ...x, operationStatus: 'deleting' } : x)) }));
    o.show('success', t('people.users.deleteStarted', { name: user.name }));
  } else if (result.kind === 'done') {
    o.show('success', t('people.users.deletedOne', { name: user.name }));
    await o.reload();
  } else o.show('error', result.text);
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

/** A full timestamp in the tenant's zone ("2026/11/25 (水) 07:23:12"), the zone named in the tooltip. */
export function DateCell({ value, lang }: { value: number | string | null; lang: Lang }) {
  if (value === null || value === undefined) return <span>-</span>;
  const d = new Date(value);
  return (
    <time dateTime={d.toISOString()} title={fullTimestamp(d, lang)}>
      {formatDateTime(d, lang, TENANT_TIME_ZONE)}
    </time>
  );
}

/**
 * The date alone ("2026/11/25 (水)", `short`: "2026/11/25"), the full timestamp with its zone in the
 * tooltip: for narrow columns.
 */
export function DateText({ value, lang, short }: { value: number | string | null; lang: Lang; short?: boolean }) {
  if (value === null || value === undefined) return <span>-</span>;
  const d = new Date(value);
  const date = formatDate(d, lang, TENANT_TIME_ZONE);
  return (
    <time dateTime={d.toISOString()} title={fullTimestamp(d, lang)}>
      {short ? date.split(' ')[0] : date}
    </time>
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

/**
 * A person's name as the lists show it, with the chips that say what is going on with them. The one
 * place the name cell is drawn (users and deactivated users): a reading (furigana) or anything else
 * shown with the name goes here, under or beside it (issue 27 part 3, decision 0044).
 */
export function PersonName({ t, user, pending }: { t: T; user: Pick<PersonRow, 'name' | 'operationStatus'> & { name_reading?: string | null }; pending?: boolean }) {
  return (
    <>
      {/* The reading above the name, as Japanese forms print フリガナ (decision 0045). */}
      {user.name_reading && (
        <span className="block text-xs text-slate-700" lang="ja" data-testid="name-reading">
          {user.name_reading}
        </span>
      )}
      <span className="font-medium" data-testid="person-name">
        {user.name}
      </span>
      {pending && <PendingChip t={t} />}
      {user.operationStatus === 'deleting' && <DeletingChip t={t} />}
    </>
  );
}

/** An email address, whole: where the column is narrow it breaks before the "@" first, never cut. */
export function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return <span className="dt-whole">{email}</span>;
  return (
    <span className="dt-whole" data-testid="person-email">
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </span>
  );
}
