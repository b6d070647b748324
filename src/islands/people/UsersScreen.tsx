// User management (spec 02 "User management screen", sections 4, 5 and 8). The server renders
// the page with the list for the URL's search, sort and page (links and a GET form, so they work
// without JavaScript); this island adds the toolbar's actions, the row actions and their dialogs,
// the resend-invite buttons, the "deleting" chip that goes away when the background deletion is
// done, and the one-time intro tour. After a change it reads the list again with the same query.
import { useEffect, useRef, useState } from 'react';
import { api, type ApiResult } from '../../shared/api';
import type { LockoutPreview } from '../../shared/tenant-settings/schemas';
import { LockoutDialog, useLockoutPreview } from '../kit/LockoutDialog';
import { getT, type Lang, type T } from '../../shared/i18n';
import { listApiQuery, listQueryString, type ListQuery } from '../../shared/people/list-state';
import { BTN_PRIMARY, BTN_SECONDARY, BTN_SMALL, ConfirmDialog, Toast, useToast } from '../kit/admin-parts';
import { ImportDialog } from './import-dialog';
import { DataTable, Pager, type DataColumn } from '../kit/DataTable';
import RelativeTime from '../kit/RelativeTime';
import { DateText, deleteFromList, EmailText, LINK, PersonName, useDeletingPoll } from './people-parts';
import type { AllowedAppInfo, DepartmentRef, ImportLogRow, PersonRow, UsersPage } from './people-types';
import { UserDialog } from './user-dialog';
import { errorText } from '../../shared/error-codes';
import { WhyHint } from '../kit/why-hint';

export interface UsersScreenProps {
  lang: Lang;
  basePath: string;
  list: UsersPage;
  query: ListQuery;
  apps: AllowedAppInfo[];
  departments: DepartmentRef[];
  importLogs: ImportLogRow[];
  /** The server's clock when it rendered the page (the first render must match it). */
  now: number;
  /** The audit-log export is for admins only. */
  canExportAudit: boolean;
  /**
   * `?dialog=add-user`: the server renders the add-user dialog open, so it can be opened and typed
   * into before the script arrives (decision 0047).
   */
  openDialog?: 'add-user' | null;
}

/** The dialog's query on the list's own address (the link the server renders for "Add user"). */
export const ADD_USER_QUERY = 'dialog=add-user';

const seatless = (apps: AllowedAppInfo[]) => apps.length === 0 || apps.every((a) => !a.isSeatAvailable);

const DATE_COLUMNS = ['created_at', 'last_active_at'];
const TOUR_KEY = 'portal.tour.addUser';
const INVITED_KEY = 'portal.invitesSent';

function invitedThisSession(): Set<number> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(INVITED_KEY) ?? '[]') as number[]);
  } catch {
    return new Set();
  }
}

export default function UsersScreen(p: UsersScreenProps) {
  const t = getT(p.lang);
  const path = `${p.basePath}/admin/users`;
  const { toast, show, close } = useToast();
  const [list, setList] = useState(p.list);
  const [apps, setApps] = useState(p.apps);
  const [departments, setDepartments] = useState(p.departments);
  const [hydrated, setHydrated] = useState(false);
  const [now, setNow] = useState(p.now);
  const [invited, setInvited] = useState<Set<number>>(new Set());
  const [dialog, setDialog] = useState<{ kind: 'add' } | { kind: 'edit'; user: PersonRow } | null>(() => (p.openDialog === 'add-user' && !seatless(p.apps) ? { kind: 'add' } : null));
  // Opened from the address: on close the focus goes to the add button (the link it replaced).
  const fromUrl = useRef(dialog !== null);
  const addRef = useRef<HTMLButtonElement>(null);
  const [importOpen, setImportOpen] = useState(false);
  const [confirm, setConfirm] = useState<{ kind: 'deactivate' | 'delete' | 'passkeys'; user: PersonRow } | { kind: 'invite-all' } | null>(null);
  const [busy, setBusy] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [tour, setTour] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    setHydrated(true);
    setNow(Date.now());
    setInvited(invitedThisSession());
    // Spec 02: the intro tour on the add-user button, once, when the tenant has exactly one user.
    try {
      if (p.list.counts.users === 1 && !localStorage.getItem(TOUR_KEY)) {
        setTour(true);
        localStorage.setItem(TOUR_KEY, new Date().toISOString());
      }
    } catch {
      // Storage unavailable (private mode): no tour.
    }
  }, []);

  useEffect(() => {
    if (!menuOpen) return;
    const onDoc = (e: MouseEvent) => {
      if (!menuRef.current?.contains(e.target as Node)) setMenuOpen(false);
    };
    document.addEventListener('mousedown', onDoc);
    return () => document.removeEventListener('mousedown', onDoc);
  }, [menuOpen]);

  const reload = async () => {
    const [users, allowed, depts] = await Promise.all([
      api<UsersPage>(p.basePath, 'GET', `admin/users?${listApiQuery(p.query)}`),
      api<AllowedAppInfo[]>(p.basePath, 'GET', 'admin/apps/allowed'),
      api<DepartmentRef[]>(p.basePath, 'GET', 'admin/departments'),
    ]);
    if (users.ok) setList(users.data);
    if (allowed.ok && Array.isArray(allowed.data)) setApps(allowed.data);
    if (depts.ok && Array.isArray(depts.data)) setDepartments(depts.data.map((d) => ({ id: d.id, name: d.name })));
    setNow(Date.now());
    return users.ok ? users.data : null;
  };

  // A deletion running in the background: read the list again until its user is gone.
  useDeletingPoll(list.data, hydrated, reload);

  const noSeat = seatless(apps);
  const addDisabled = !hydrated || noSeat;
  const listHref = `${path}${listQueryString(p.query)}`;
  const addHref = `${listHref}${listHref.includes('?') ? '&' : '?'}${ADD_USER_QUERY}`;

  const closeDialog = () => {
    setDialog(null);
    // The list again: a reload or a shared link must not open the dialog once more.
    const url = new URL(window.location.href);
    if (url.searchParams.has('dialog')) {
      url.searchParams.delete('dialog');
      history.replaceState(history.state, '', url);
    }
  };

  const resendOne = async (u: PersonRow) => {
    const r = await api(p.basePath, 'POST', 'admin/users/invite', { users: [u.id] });
    if (!r.ok) {
      show('error', t(r.data.message === 'already-registered' ? 'people.users.alreadyRegistered' : 'errors.generic'));
      return;
    }
    const next = new Set(invited).add(u.id);
    setInvited(next);
    try {
      sessionStorage.setItem(INVITED_KEY, JSON.stringify([...next]));
    } catch {
      // The button still says "invite sent" until the page is left.
    }
    show('success', t('people.users.inviteSentTo', { email: u.email }));
  };

  const runConfirm = async () => {
    if (!confirm || busy) return;
    setBusy(true);
    if (confirm.kind === 'invite-all') {
      const r = await api<{ count?: number }>(p.basePath, 'POST', 'admin/users/invite', { users: 'all' });
      setBusy(false);
      setConfirm(null);
      if (r.ok) show('success', t('people.users.inviteAllSent', { count: r.data.count ?? 0 }));
      else show('error', t('errors.generic'));
      return;
    }
    const u = confirm.user;
    if (confirm.kind === 'deactivate') {
      const r = await api(p.basePath, 'POST', `admin/users/${u.id}/deactivate`);
      setBusy(false);
      setConfirm(null);
      if (r.ok) {
        show('success', t('people.users.deactivated', { name: u.name }));
        await reload();
      } else {
        show('error', t(errorText(r.data.message)));
      }
      return;
    }
    if (confirm.kind === 'passkeys') {
      // A lost device (decision 0039): the person signs in with their password and factors again.
      const r = await api(p.basePath, 'DELETE', `admin/users/${u.id}/passkeys`);
      setBusy(false);
      setConfirm(null);
      if (r.ok) {
        show('success', t('people.users.passkeysRemoved', { name: u.name }));
        await reload();
      } else {
        show('error', t(errorText(r.data.message)), 10_000);
      }
      return;
    }
    const answered = () => (setBusy(false), setConfirm(null));
    await deleteFromList({ basePath: p.basePath, t, user: u, answered, setList, show, reload });
  };

  const ssoAnswered = async (on: boolean, r: ApiResult) => {
    if (r.ok) {
      show('success', t(on ? 'people.users.ssoAllEnabled' : 'people.users.ssoAllDisabled'));
      await reload();
      return;
    }
    show('error', t(errorText(r.data.message)), 10_000);
  };

  // Everyone sent to the IdP: first who it has never signed in (decision 0043).
  const ssoLockout = useLockoutPreview(
    () => api<LockoutPreview>(p.basePath, 'POST', 'admin/users/enable-sso-for-all/preview'),
    (n) => api(p.basePath, 'POST', `admin/users/enable-sso-for-all?confirmAffected=${n}`),
    (r) => void ssoAnswered(true, r),
  );

  const ssoForAll = async (on: boolean) => {
    setMenuOpen(false);
    if (on) return ssoLockout.open();
    await ssoAnswered(false, await api(p.basePath, 'POST', 'admin/users/disable-sso-for-all'));
  };

  // An invited existing account: only its address is this tenant's until the person accepts.
  const who = (u: PersonRow) => (u.invitation_pending ? u.email : u.name);
  const columns = userColumns({ t, lang: p.lang, now, list, invited, hydrated, onResend: (u) => void resendOne(u) });
  const confirmUser = confirm && confirm.kind !== 'invite-all' ? confirm.user : null;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label={t('people.users.toolbar')} data-testid="users-toolbar">
        <div className="relative">
          {!hydrated && !noSeat ? (
            // Before the script: a link to this list with the dialog open, rendered by the server.
            <a href={addHref} className={`${BTN_PRIMARY} inline-block no-underline`} data-testid="add-user">
              {t('people.users.add')}
            </a>
          ) : (
            <button ref={addRef} type="button" className={BTN_PRIMARY} disabled={noSeat} aria-describedby={noSeat ? 'add-user-no-seat' : tour ? 'add-user-tour' : undefined} onClick={() => ((fromUrl.current = false), setDialog({ kind: 'add' }))} data-testid="add-user">
              {t('people.users.add')}
            </button>
          )}
        </div>
        <button type="button" className={BTN_SECONDARY} disabled={!hydrated} onClick={() => setImportOpen(true)}>
          {t('people.users.editByImport')}
        </button>
        <a className={`${BTN_SECONDARY} no-underline`} href={`${p.basePath}/api/admin/users/export`} download data-testid="users-export">
          {t('people.users.export')}
        </a>
        <button
          type="button"
          className={BTN_SECONDARY}
          disabled={!hydrated || list.counts.notRegistered === 0}
          aria-describedby={list.counts.notRegistered === 0 ? 'invite-all-why' : undefined}
          onClick={() => setConfirm({ kind: 'invite-all' })}
        >
          {t('people.users.inviteAll')}
        </button>
        {p.canExportAudit && (
          <a className={`${BTN_SECONDARY} no-underline`} href={`${p.basePath}/api/admin/activity-logs/export-csv`} download data-testid="audit-export">
            {t('people.users.downloadAudit')}
          </a>
        )}
        <div className="relative" ref={menuRef}>
          <button
            ref={menuButtonRef}
            type="button"
            className={BTN_SECONDARY}
            aria-expanded={menuOpen}
            aria-controls="users-menu"
            disabled={!hydrated}
            onClick={() => setMenuOpen((o) => !o)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setMenuOpen(false);
            }}
          >
            {t('people.users.more')}
          </button>
          <ul
            id="users-menu"
            hidden={!menuOpen}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                setMenuOpen(false);
                menuButtonRef.current?.focus();
              }
            }}
            className="absolute right-0 top-full z-30 m-0 mt-1 min-w-64 list-none rounded border border-slate-300 bg-white p-1 shadow-lg"
          >
            <li>
              <a href={`${p.basePath}/admin/deactivated`} className="block rounded px-3 py-2 text-slate-900 no-underline hover:bg-slate-100">
                {t('people.users.viewDeactivated')}
              </a>
            </li>
            {list.ssoOptionsVisible && (
              <>
                <li>
                  <button type="button" className="block w-full rounded px-3 py-2 text-left hover:bg-slate-100 disabled:text-slate-700" disabled={list.ssoStatus === 'all'} onClick={() => void ssoForAll(true)}>
                    {list.ssoStatus === 'all' ? t('people.users.ssoAllOn') : t('people.users.enableSsoAll')}
                  </button>
                </li>
                <li>
                  <button
                    type="button"
                    className="block w-full rounded px-3 py-2 text-left hover:bg-slate-100 disabled:text-slate-700"
                    disabled={list.ssoStatus === 'none'}
                    aria-describedby={list.ssoStatus === 'none' ? 'sso-off-why' : undefined}
                    onClick={() => void ssoForAll(false)}
                  >
                    {t('people.users.disableSsoAll')}
                  </button>
                  <WhyHint id="sso-off-why" reason={list.ssoStatus === 'none' && t('people.users.ssoNoneWhy')} className="max-w-64 px-3 pb-1 text-xs" />
                </li>
              </>
            )}
          </ul>
        </div>
      </div>
      {tour && (
        // In the flow under the toolbar, not over it: it explains the add button, it hides nothing.
        <div id="add-user-tour" role="note" className="max-w-md rounded-lg border border-blue-800 bg-blue-50 p-3 text-sm text-blue-950" data-testid="intro-tour">
          <p className="m-0 font-semibold">{t('people.tour.title')}</p>
          <p className="m-0 mt-1">{t('people.tour.text')}</p>
          <button type="button" className={`${BTN_SMALL} mt-2`} onClick={() => setTour(false)}>
            {t('people.tour.done')}
          </button>
        </div>
      )}
      {noSeat && (
        <p id="add-user-no-seat" className="m-0 text-sm text-slate-800">
          {t('people.users.noSeat')}
        </p>
      )}
      {/* Why "resend to all" is disabled (decision 0047); the counts below say the same in figures. */}
      <WhyHint id="invite-all-why" reason={list.counts.notRegistered === 0 && t('people.users.inviteAllWhy')} />
      <dl className="m-0 flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="users-counts">
        <div className="flex gap-1 whitespace-nowrap">
          <dt>{t('people.users.countUsers')}</dt>
          <dd className="m-0 font-semibold">{list.counts.users}</dd>
        </div>
        <div className="flex gap-1 whitespace-nowrap">
          <dt>{t('people.users.countNotRegistered')}</dt>
          <dd className="m-0 font-semibold">{list.counts.notRegistered}</dd>
        </div>
        <div className="flex gap-1 whitespace-nowrap">
          <dt>{t('people.users.countNeverActive')}</dt>
          <dd className="m-0 font-semibold">{list.counts.neverActive}</dd>
        </div>
      </dl>

      <form method="get" action={path} role="search" className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor="users-search" className="block font-medium">
            {t('people.users.search')}
          </label>
          <input id="users-search" type="search" name="search" defaultValue={p.query.q} maxLength={255} className="mt-1 w-72 max-w-full rounded border border-slate-500 px-3 py-2" />
        </div>
        {(p.query.sort !== 'created_at' || p.query.dir !== 'desc') && (
          <>
            <input type="hidden" name="sort" value={p.query.sort} />
            <input type="hidden" name="order" value={p.query.dir} />
          </>
        )}
        {p.query.perPage !== 25 && <input type="hidden" name="perPage" value={p.query.perPage} />}
        <button type="submit" className={BTN_SECONDARY}>
          {t('people.users.searchButton')}
        </button>
        {p.query.q && (
          <a href={`${path}${listQueryString({ ...p.query, q: '', page: 1 })}`} className={`${LINK} py-2`}>
            {t('people.users.clearSearch')}
          </a>
        )}
      </form>

      <h2 ref={headingRef} tabIndex={-1} className="sr-only">
        {t('people.users.listHeading')}
      </h2>
      <DataTable<PersonRow>
        t={t}
        testId="users-table"
        caption={t('people.users.caption', { count: list.total })}
        columns={columns}
        rows={list.data}
        rowKey={(u) => u.id}
        rowAttrs={(u) => ({ 'data-testid': 'user-row', 'data-id': u.id, 'data-email': u.email })}
        sort={{ query: p.query, path, dateColumns: DATE_COLUMNS }}
        minWidth={usersTableMinWidth(list)}
        detailsLabel={who}
        actions={{
          kind: 'menu',
          header: t('people.cols.actions'),
          width: p.lang === 'ja' ? 'w-[5rem]' : 'w-[6.5rem]',
          menuLabel: (u) => t('people.deactivated.menuLabel', { name: who(u) }),
          disabled: (u) => !hydrated || u.operationStatus === 'deleting',
          items: (u) => [
            { label: t('admin.common.edit'), ariaLabel: t('people.users.editLabel', { name: who(u) }), disabled: u.invitation_pending, why: t('people.users.pendingWhy'), onSelect: () => setDialog({ kind: 'edit', user: u }) },
            { label: t('people.users.deactivate'), ariaLabel: t('people.users.deactivateLabel', { name: who(u) }), disabled: u.invitation_pending, why: t('people.users.pendingWhy'), onSelect: () => setConfirm({ kind: 'deactivate', user: u }) },
            ...(p.canExportAudit && u.passkeys > 0
              ? [{ label: t('people.users.removePasskeys'), ariaLabel: t('people.users.removePasskeysLabel', { name: who(u) }), onSelect: () => setConfirm({ kind: 'passkeys', user: u }) }]
              : []),
            { label: t('admin.common.delete'), ariaLabel: t('people.users.deleteLabel', { name: who(u) }), danger: true, onSelect: () => setConfirm({ kind: 'delete', user: u }) },
          ],
        }}
        empty={
          p.query.q
            ? // The search form just above has the way out ("clear the search").
              { text: t('people.users.noMatch') }
            : {
                text: t('people.users.empty'),
                action: (
                  <button type="button" className={BTN_PRIMARY} disabled={addDisabled} aria-describedby={noSeat ? 'add-user-no-seat' : undefined} onClick={() => ((fromUrl.current = false), setDialog({ kind: 'add' }))}>
                    {t('people.users.add')}
                  </button>
                ),
              }
        }
      />
      <Pager t={t} query={p.query} total={list.total} path={path} />

      {(hydrated || dialog !== null) && (
        <UserDialog
          t={t}
          basePath={p.basePath}
          open={dialog !== null}
          user={dialog?.kind === 'edit' ? dialog.user : null}
          departments={departments}
          apps={apps}
          schedulerAllowed={list.schedulerAllowed}
          ssoOptions={list.ssoOptionsVisible}
          lastAdmin={dialog?.kind === 'edit' && Boolean(dialog.user.is_admin) && list.counts.admins <= 1}
          onClose={closeDialog}
          returnFocus={() => (fromUrl.current ? addRef.current : null)}
          closeHref={listHref}
          onSaved={(message, saved) => {
            closeDialog();
            show('success', message);
            // The edited row is current at once: an edit opened before the reload below answers
            // must not start from the row as it was before this save.
            if (saved) setList((l) => ({ ...l, data: l.data.map((u) => (u.id === saved.id ? saved : u)) }));
            void reload();
          }}
          onError={(message, ms) => show('error', message, ms)}
          onImported={() => void reload()}
        />
      )}
      {hydrated && (
        <ImportDialog
          t={t}
          lang={p.lang}
          basePath={p.basePath}
          open={importOpen}
          logs={p.importLogs}
          onClose={() => setImportOpen(false)}
          onImported={() => void reload()}
        />
      )}
      <ConfirmDialog
        open={confirm !== null}
        id="users-confirm"
        title={
          confirm?.kind === 'invite-all'
            ? t('people.users.inviteAllTitle')
            : confirm?.kind === 'deactivate'
              ? t('people.users.deactivateTitle')
              : confirm?.kind === 'passkeys'
                ? t('people.users.removePasskeysTitle')
                : t('people.users.deleteTitle')
        }
        text={
          confirm?.kind === 'invite-all' ? (
            t('people.users.inviteAllText', { count: list.counts.notRegistered })
          ) : confirmUser && confirm?.kind === 'deactivate' ? (
            <DeactivateText t={t} user={confirmUser} />
          ) : confirmUser && confirm?.kind === 'passkeys' ? (
            t('people.users.removePasskeysText', { name: confirmUser.name, count: confirmUser.passkeys })
          ) : confirmUser ? (
            t('people.users.deleteText', { name: confirmUser.name, email: confirmUser.email })
          ) : (
            ''
          )
        }
        confirmLabel={
          confirm?.kind === 'invite-all'
            ? t('people.users.inviteAllConfirm')
            : confirm?.kind === 'deactivate'
              ? t('people.users.deactivate')
              : confirm?.kind === 'passkeys'
                ? t('people.users.removePasskeys')
                : t('admin.common.delete')
        }
        cancelLabel={t('admin.common.cancel')}
        danger={confirm?.kind !== 'invite-all'}
        busy={busy}
        onConfirm={() => void runConfirm()}
        onCancel={() => setConfirm(null)}
        returnFocus={() => (document.activeElement && document.activeElement !== document.body ? null : headingRef.current)}
      />
      <LockoutDialog t={t} id="sso-all-lockout" title={t('people.users.ssoAllConfirmTitle')} state={ssoLockout} />
      <Toast t={t} toast={toast} onClose={close} />
    </div>
  );
}

/**
 * The table's least width: its fixed columns (below, the wider language's) and 6rem for the email,
 * the one column without a width, which takes what is left. Without it the fixed columns took
 * nearly the whole 1280px screen's content column (61.4rem beside the drawer) and the addresses
 * wrapped a few letters a line. With the scheduler's column it still fits there; with the SSO
 * column as well the table scrolls sideways, the actions staying in view.
 */
function usersTableMinWidth(list: UsersPage): string {
  if (list.schedulerAllowed) return list.ssoOptionsVisible ? 'min-w-[65.5rem]' : 'min-w-[61rem]';
  return list.ssoOptionsVisible ? 'min-w-[60.5rem]' : 'min-w-[56rem]';
}

/**
 * The users table's columns (long values are cut and whole in a tooltip; the email never is).
 */
function userColumns(p: { t: T; lang: Lang; now: number; list: UsersPage; invited: Set<number>; hydrated: boolean; onResend: (u: PersonRow) => void }): DataColumn<PersonRow>[] {
  const { t } = p;
  // Widths per language: the headers and values differ in length ("2段階認証" / "2FA").
  const ja = p.lang === 'ja';
  const cols: (DataColumn<PersonRow> | false)[] = [
    // Name and email first: admins find people by them (issue 27 part 3); the email is never cut.
    {
      key: 'name',
      header: t('people.cols.name'),
      width: 'w-[7rem]',
      sortable: true,
      compact: 'title',
      truncate: (u) => u.name,
      render: (u) => <PersonName t={t} user={u} pending={u.invitation_pending} />,
    },
    { key: 'email', header: t('people.cols.email'), sortable: true, compact: 'subtitle', render: (u) => <EmailText email={u.email} /> },
    { key: 'role', header: t('people.cols.role'), width: ja ? 'w-[6.5rem]' : 'w-[6rem]', compact: 'chip', render: (u) => t(u.is_admin ? 'people.roles.admin' : 'people.roles.normal') },
    { key: 'department', header: t('people.cols.department'), width: ja ? 'w-[5.5rem]' : 'w-[7rem]', truncate: (u) => u.department?.name ?? '-', render: (u) => u.department?.name ?? '-' },
    p.list.schedulerAllowed && {
      key: 'additional',
      header: t('people.cols.additionalDepartments'),
      width: 'w-[5rem]',
      truncate: (u) => u.additionalDepartments.map((d) => d.name).join(t('people.listSeparator')) || '-',
      render: (u) => u.additionalDepartments.map((d) => d.name).join(t('people.listSeparator')) || '-',
    },
    {
      key: 'last_active_at',
      header: t('people.cols.lastActive'),
      width: ja ? 'w-[6.5rem]' : 'w-[7.5rem]',
      sortable: true,
      render: (u) => {
        if (u.invitation_pending) return '-';
        if (u.last_active_at) return <RelativeTime value={u.last_active_at} now={p.now} lang={p.lang} testId="last-active" />;
        // Registered but never signed in: nothing to resend (the server answers already-registered),
        // and the count "never active" covers them. The button is for those not registered yet,
        // the people "not registered (invited)" counts and "resend to all" reaches.
        if (u.isRegistered) return <span className="text-slate-700" data-testid="never-active">{t('people.users.neverActive')}</span>;
        const sent = p.invited.has(u.id);
        return (
          <button
            type="button"
            className="rounded border border-slate-600 bg-white px-2 py-1 text-xs text-slate-900 hover:bg-slate-100 disabled:cursor-not-allowed disabled:border-slate-400 disabled:text-slate-700"
            disabled={!p.hydrated || u.operationStatus === 'deleting' || sent}
            onClick={() => p.onResend(u)}
            aria-label={sent ? undefined : t('people.users.resendLabel', { name: u.invitation_pending ? u.email : u.name })}
          >
            {t(sent ? 'people.users.inviteSent' : 'people.users.resend')}
          </button>
        );
      },
    },
    p.list.ssoOptionsVisible && { key: 'sso', header: t('people.cols.sso'), width: 'w-[4.5rem]', render: (u) => t(u.is_sso_enabled ? 'people.users.on' : 'people.users.off') },
    { key: 'twofa', header: t('people.cols.twofa'), width: ja ? 'w-[5.5rem]' : 'w-[3.5rem]', render: (u) => t(u.isTwofaEnabled ? 'people.users.on' : 'people.users.off') },
    {
      key: 'passkeys',
      header: t('people.cols.passkeys'),
      width: 'w-[5rem]',
      render: (u) => <span data-testid="user-passkeys">{u.passkeys > 0 ? t('people.users.passkeyCount', { count: u.passkeys }) : t('people.users.off')}</span>,
    },
    {
      key: 'created_at',
      header: t('people.cols.createdAt'),
      width: ja ? 'w-[6.5rem]' : 'w-[7.5rem]',
      sortable: true,
      className: 'whitespace-nowrap',
      render: (u) => <DateText value={u.created_at} lang={p.lang} short />,
    },
  ];
  return cols.filter((c): c is DataColumn<PersonRow> => c !== false);
}

function DeactivateText({ t, user }: { t: T; user: PersonRow }) {
  return (
    <>
      {t('people.users.deactivateText', { name: user.name })}
      {user.allowedApps.length > 0 && (
        <>
          <span className="mt-2 block">{t('people.users.deactivateApps')}</span>
          <span className="mt-1 block" data-testid="deactivate-apps">
            {user.allowedApps.map((a) => t(`apps.${a}`)).join(t('people.listSeparator'))}
          </span>
        </>
      )}
    </>
  );
}
