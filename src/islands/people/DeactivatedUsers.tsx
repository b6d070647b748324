// Deactivated users (spec 02 "Deactivated users screen", section 4): the list by deactivated_at
// descending, 25 per page (paging by links from the server), each row with a menu to reactivate
// (disabled when the tenant's first app has no free seat) or delete.
import { useEffect, useRef, useState } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';
import type { DeactivatedUsersPage } from '../../shared/people/schemas';
import { DEFAULT_LIST_QUERY, type ListQuery } from '../../shared/people/list-state';
import { ConfirmDialog, Toast, useToast } from '../kit/admin-parts';
import { DataTable, Pager } from '../kit/DataTable';
import { DateCell, deleteFromList, EmailText, PersonName, useDeletingPoll } from './people-parts';
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
  const [confirm, setConfirm] = useState<{ kind: 'reactivate' | 'delete'; user: PersonRow } | null>(null);
  const [busy, setBusy] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const query: ListQuery = { ...DEFAULT_LIST_QUERY, sort: 'deactivated_at', page: list.page, perPage: list.perPage };
  const defaults: ListQuery = { ...query, page: 1 };

  useEffect(() => {
    setHydrated(true);
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
    const answered = () => (setBusy(false), setConfirm(null));
    await deleteFromList({ basePath: p.basePath, t, user: u, answered, setList, show, reload });
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
      <DataTable<PersonRow>
        t={t}
        testId="deactivated-table"
        caption={t('people.deactivated.listHeading')}
        columns={[
          {
            key: 'name',
            header: t('people.cols.name'),
            width: 'w-[10rem]',
            compact: 'title',
            truncate: (u) => u.name,
            render: (u) => <PersonName t={t} user={u} />,
          },
          { key: 'email', header: t('people.cols.email'), compact: 'subtitle', render: (u) => <EmailText email={u.email} /> },
          { key: 'role', header: t('people.cols.role'), width: 'w-[7rem]', compact: 'chip', render: (u) => t(u.is_admin ? 'people.roles.admin' : 'people.roles.normal') },
          { key: 'department', header: t('people.cols.department'), width: 'w-[8rem]', truncate: (u) => u.department?.name ?? '-', render: (u) => u.department?.name ?? '-' },
          { key: 'deactivated_at', header: t('people.cols.deactivatedAt'), width: 'w-[13rem]', className: 'whitespace-nowrap', render: (u) => <DateCell value={u.deactivated_at} lang={p.lang} /> },
        ]}
        rows={list.data}
        rowKey={(u) => u.id}
        rowAttrs={(u) => ({ 'data-testid': 'deactivated-row', 'data-email': u.email })}
        minWidth="min-w-[48rem]"
        detailsLabel={(u) => u.name}
        actions={{
          kind: 'menu',
          header: t('people.deactivated.menu'),
          width: p.lang === 'ja' ? 'w-[5.5rem]' : 'w-[6.5rem]',
          menuLabel: (u) => t('people.deactivated.menuLabel', { name: u.name }),
          disabled: (u) => !hydrated || u.operationStatus === 'deleting',
          items: (u) => [
            { label: t('people.deactivated.reactivate'), disabled: noSeat, describedBy: noSeat ? 'reactivate-no-seat' : undefined, onSelect: () => setConfirm({ kind: 'reactivate', user: u }) },
            { label: t('admin.common.delete'), danger: true, onSelect: () => setConfirm({ kind: 'delete', user: u }) },
          ],
        }}
        // The way on is the page's own "back to the users" link, just above.
        empty={{ text: t('people.deactivated.empty') }}
      />
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
