// Deactivated users (spec 02 "Deactivated users screen", section 4): the list by deactivated_at
// descending, 25 per page (paging by links from the server), each row with a menu to reactivate
// (disabled when the tenant's first app has no free seat) or delete.
import { useEffect, useRef, useState } from 'react';
import { api } from '../shared/api';
import { browserTimeZone, SERVER_TIME_ZONE } from '../shared/dates';
import { getT, type Lang, type T } from '../shared/i18n';
import type { DeactivatedUsersPage } from '../shared/people-schemas';
import { DEFAULT_LIST_QUERY, type ListQuery } from '../shared/people-ui';
import { BTN_SMALL, ConfirmDialog, Toast, useToast } from './admin-parts';
import { DateCell, deleteUser, DeletingChip, EmptyRow, Pager, TABLE, TABLE_WRAP, TD, TH, useDeletingPoll } from './people-parts';
import type { AllowedAppInfo, PersonRow } from './people-types';

export interface DeactivatedUsersProps {
  lang: Lang;
  basePath: string;
  list: DeactivatedUsersPage;
  apps: AllowedAppInfo[];
}


export default function DeactivatedUsers(p: DeactivatedUsersProps) {
  const t = getT(p.lang);
  const path = `${p.basePath}/admin/deactivated`;
  const { toast, show, close } = useToast();
  const [list, setList] = useState(p.list);
  const [apps, setApps] = useState(p.apps);
  const [hydrated, setHydrated] = useState(false);
  const [timeZone, setTimeZone] = useState(SERVER_TIME_ZONE);
  const [confirm, setConfirm] = useState<{ kind: 'reactivate' | 'delete'; user: PersonRow } | null>(null);
  const [busy, setBusy] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const query: ListQuery = { ...DEFAULT_LIST_QUERY, sort: 'deactivated_at', page: list.page, perPage: list.perPage };
  const defaults: ListQuery = { ...query, page: 1 };

  useEffect(() => {
    setHydrated(true);
    setTimeZone(browserTimeZone());
  }, []);

  const reload = async () => {
    const [users, allowed] = await Promise.all([
      api<DeactivatedUsersPage>(p.basePath, 'GET', `admin/deactivated-users?page=${list.page}`),
      api<AllowedAppInfo[]>(p.basePath, 'GET', 'admin/apps/allowed'),
    ]);
    if (users.ok) setList(users.data);
    if (allowed.ok && Array.isArray(allowed.data)) setApps(allowed.data);
  };

  useDeletingPoll(list.data, hydrated, reload);

  // Spec 02 section 4: reactivation is refused while the tenant's first app has no free seat.
  const firstApp = apps[0];
  const noSeat = !firstApp || !firstApp.isSeatAvailable;

  const run = async () => {
    if (!confirm || busy) return;
    const u = confirm.user;
    setBusy(true);
    if (confirm.kind === 'reactivate') {
      const r = await api(p.basePath, 'POST', `admin/users/${u.id}/reactivate`);
      setBusy(false);
      setConfirm(null);
      if (r.ok) {
        show('success', t('people.deactivated.reactivated', { name: u.name }));
        await reload();
      } else show('error', t(r.data.message === 'quota_finished' ? 'people.errors.noSeatToReactivate' : 'errors.generic'));
      return;
    }
    const result = await deleteUser(p.basePath, t, u.id);
    setBusy(false);
    setConfirm(null);
    if (result.kind === 'started') {
      setList((l) => ({ ...l, data: l.data.map((x) => (x.id === u.id ? { ...x, operationStatus: 'deleting' } : x)) }));
      show('success', t('people.users.deleteStarted', { name: u.name }));
    } else if (result.kind === 'done') {
      show('success', t('people.users.deletedOne', { name: u.name }));
      await reload();
    } else show('error', result.text);
  };

  return (
    <div className="flex flex-col gap-4">
      {noSeat && hydrated && (
        <p id="reactivate-no-seat" className="m-0 text-sm text-slate-800">
          {t('people.deactivated.noSeat')}
        </p>
      )}
      <h2 ref={headingRef} tabIndex={-1} className="sr-only">
        {t('people.deactivated.listHeading')}
      </h2>
      <div className={TABLE_WRAP}>
        <table className={TABLE} data-testid="deactivated-table">
          <thead className="bg-slate-100">
            <tr>
              <th scope="col" className={TH}>
                {t('people.cols.department')}
              </th>
              <th scope="col" className={TH}>
                {t('people.cols.name')}
              </th>
              <th scope="col" className={TH}>
                {t('people.cols.email')}
              </th>
              <th scope="col" className={TH}>
                {t('people.cols.role')}
              </th>
              <th scope="col" className={TH} aria-sort="descending">
                {t('people.cols.deactivatedAt')}
              </th>
              <th scope="col" className={TH}>
                {t('people.cols.actions')}
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.length === 0 && <EmptyRow colSpan={6}>{t('people.deactivated.empty')}</EmptyRow>}
            {list.data.map((u) => (
              <Row key={u.id} t={t} lang={p.lang} u={u} timeZone={timeZone} disabled={!hydrated || u.operationStatus === 'deleting'} noSeat={noSeat} onAction={(kind) => setConfirm({ kind, user: u })} />
            ))}
          </tbody>
        </table>
      </div>
      <Pager t={t} query={query} total={list.total} path={path} sizes={[list.perPage]} defaults={defaults} />
      <ConfirmDialog
        open={confirm !== null}
        id="deactivated-confirm"
        title={t(confirm?.kind === 'reactivate' ? 'people.deactivated.reactivateTitle' : 'people.users.deleteTitle')}
        text={confirm ? t(confirm.kind === 'reactivate' ? 'people.deactivated.reactivateText' : 'people.users.deleteText', { name: confirm.user.name, email: confirm.user.email }) : ''}
        confirmLabel={t(confirm?.kind === 'reactivate' ? 'people.deactivated.reactivate' : 'admin.common.delete')}
        cancelLabel={t('admin.common.cancel')}
        danger={confirm?.kind === 'delete'}
        busy={busy}
        onConfirm={() => void run()}
        onCancel={() => setConfirm(null)}
        returnFocus={() => (document.activeElement && document.activeElement !== document.body ? null : headingRef.current)}
      />
      <Toast t={t} toast={toast} onClose={close} />
    </div>
  );
}

function Row(p: { t: T; lang: Lang; u: PersonRow; timeZone: string; disabled: boolean; noSeat: boolean; onAction: (kind: 'reactivate' | 'delete') => void }) {
  const { t, u } = p;
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDoc = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDoc);
    return () => document.removeEventListener('mousedown', onDoc);
  }, [open]);
  const menuId = `deactivated-menu-${u.id}`;
  const item = 'block w-full rounded px-3 py-2 text-left hover:bg-slate-100 disabled:cursor-not-allowed disabled:text-slate-700';
  return (
    <tr className="border-t border-slate-200" data-testid="deactivated-row" data-email={u.email}>
      <td className={TD}>{u.department?.name ?? '-'}</td>
      <td className={TD}>
        <span className="font-medium">{u.name}</span>
        {u.operationStatus === 'deleting' && <DeletingChip t={t} />}
      </td>
      <td className={`${TD} break-all`}>{u.email}</td>
      <td className={TD}>{t(u.is_admin ? 'people.roles.admin' : 'people.roles.normal')}</td>
      <td className={`${TD} whitespace-nowrap`}>
        <DateCell value={u.deactivated_at} lang={p.lang} timeZone={p.timeZone} />
      </td>
      <td className={TD}>
        <div
          className="relative"
          ref={ref}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && open) {
              setOpen(false);
              buttonRef.current?.focus();
            }
          }}
        >
          <button ref={buttonRef} type="button" className={BTN_SMALL} disabled={p.disabled} aria-expanded={open} aria-controls={menuId} aria-label={t('people.deactivated.menuLabel', { name: u.name })} onClick={() => setOpen((o) => !o)}>
            {t('people.deactivated.menu')}
          </button>
          <ul id={menuId} hidden={!open} className="absolute right-0 top-full z-30 m-0 mt-1 min-w-48 list-none rounded border border-slate-300 bg-white p-1 shadow-lg">
            <li>
              <button
                type="button"
                className={item}
                disabled={p.noSeat}
                aria-describedby={p.noSeat ? 'reactivate-no-seat' : undefined}
                onClick={() => {
                  setOpen(false);
                  p.onAction('reactivate');
                }}
              >
                {t('people.deactivated.reactivate')}
              </button>
            </li>
            <li>
              <button
                type="button"
                className={`${item} text-red-800`}
                onClick={() => {
                  setOpen(false);
                  p.onAction('delete');
                }}
              >
                {t('admin.common.delete')}
              </button>
            </li>
          </ul>
        </div>
      </td>
    </tr>
  );
}
