// The add-user and edit-user dialog (spec 02 "Add-user dialog", sections 4, 5 and 8). Adding has
// two tabs: one user (600px) and several by CSV (800px). Fields: name, email, main department,
// additional departments (scheduler tenants only; the main one is left out before sending), the
// allowed apps with their seat rules, the admin toggle (not for a deactivated user), and the SSO
// switch with the SAML name id when SSO options show. Taking the card or scheduler app away from
// a user first shows how many cards or schedules they have. Not an island itself.
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { api } from '../../shared/api';
import type { T } from '../../shared/i18n';
import { userInputSchema } from '../../shared/people/schemas';
import { additionalWithoutMain } from '../../shared/people/list-state';
import { BTN_PRIMARY, BTN_SECONDARY, ConfirmDialog, InlineNotice, Switch, TextField } from '../kit/admin-parts';
import { CsvImport } from './csv-import';
import Dialog from '../kit/Dialog';
import { useHydrated } from '../kit/hydrated';
import { WhyHint, whyDisabled } from '../kit/why-hint';
import type { AllowedAppInfo, DepartmentRef, PersonRow } from './people-types';


export interface UserDialogProps {
  t: T;
  basePath: string;
  open: boolean;
  /** null: add a user. */
  user: PersonRow | null;
  departments: DepartmentRef[];
  apps: AllowedAppInfo[];
  schedulerAllowed: boolean;
  ssoOptions: boolean;
  /** The user is the tenant's only active admin: the admin switch stays on, and says why. */
  lastAdmin?: boolean;
  onClose: () => void;
  /** A change was saved: the message to show, and whether a toast is an error. */
  /** `user`: the saved row as the server answered it (the list shows it at once). */
  onSaved: (message: string, user: PersonRow | null) => void;
  onError: (message: string, timeoutMs?: number) => void;
  /** A CSV import went through: the list is read again; the dialog stays with its outcome. */
  onImported: () => void;
  /** Focus on close, when not the control that opened it (a dialog the server rendered open). */
  returnFocus?: () => HTMLElement | null;
  /**
   * The list's address: before the script arrives, Cancel is a link there (a dialog the server
   * rendered open from `?dialog=add-user`, decision 0047).
   */
  closeHref?: string;
}

interface FormState {
  name: string;
  /** フリガナ (decision 0045); '' for none. */
  reading: string;
  email: string;
  departmentId: number | null;
  additional: number[];
  apps: string[];
  isAdmin: boolean;
  sso: boolean;
  samlNameId: string;
}

function initialState(user: PersonRow | null, apps: AllowedAppInfo[]): FormState {
  if (!user) {
    // A new user starts with the first app that still has a seat (at least one app is required).
    return { name: '', reading: '', email: '', departmentId: null, additional: [], apps: apps.filter((a) => a.isSeatAvailable).slice(0, 1).map((a) => a.key), isAdmin: false, sso: false, samlNameId: '' };
  }
  return {
    name: user.name,
    reading: user.name_reading ?? '',
    email: user.email,
    departmentId: user.department?.id ?? null,
    additional: user.additionalDepartments.map((d) => d.id),
    apps: [...user.allowedApps],
    isAdmin: Boolean(user.is_admin),
    sso: Boolean(user.is_sso_enabled),
    samlNameId: user.saml_name_id ?? '',
  };
}

type Errors = Partial<Record<'name' | 'reading' | 'email' | 'apps', string>>;

/**
 * The shared request schema decides what is valid (the server applies the same one); the messages
 * name the field, with separate ones for a missing and an invalid email (spec 02 section 5).
 */
export function userFormErrors(t: T, f: Pick<FormState, 'name' | 'email' | 'apps' | 'samlNameId'> & { reading?: string }, appsShown: boolean): Errors {
  const r = userInputSchema.safeParse({ name: f.name, name_reading: f.reading || null, email: f.email, allowedApps: appsShown ? f.apps : ['meishi'], saml_name_id: f.samlNameId || null });
  const e: Errors = {};
  if (r.success) return e;
  for (const issue of r.error.issues) {
    const field = issue.path[0];
    const key = field === 'name' ? 'name' : field === 'name_reading' ? 'reading' : field === 'email' ? 'email' : field === 'allowedApps' ? 'apps' : null;
    if (!key || e[key]) continue;
    if (key === 'reading') e.reading = t(issue.message);
    else if (key === 'name') e.name = t(issue.message === 'validation.required' ? 'people.form.nameRequired' : issue.message);
    else if (key === 'email') e.email = t(issue.message === 'validation.required' ? 'people.form.emailRequired' : 'people.form.emailInvalid');
    else e.apps = t('people.form.appsRequired');
  }
  return e;
}

/** Removing one of these apps asks first, with the user's count (section 5). */
const COUNTED: Record<string, { path: string; key: string }> = {
  meishi: { path: 'cards-count', key: 'people.form.removeMeishi' },
  scheduler: { path: 'schedules-count', key: 'people.form.removeScheduler' },
};

export function UserDialog(p: UserDialogProps) {
  const { t } = p;
  const editing = p.user !== null;
  const [tab, setTab] = useState<'single' | 'csv'>('single');
  const [f, setF] = useState<FormState>(() => initialState(p.user, p.apps));
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [removal, setRemoval] = useState<{ text: string } | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const samlRef = useRef<HTMLInputElement>(null);
  const [samlError, setSamlError] = useState<string | null>(null);
  const id = useId();

  const hydrated = useHydrated();
  // The form the state was last set up for: a dialog the server rendered open starts with the
  // state useState gave it, and what was typed before hydration (adopt-typed.tsx hands it over
  // right after the first commit) must not be reset by this effect.
  const shownFor = useRef<string | null>(p.open ? String(p.user?.id ?? 'new') : null);

  useEffect(() => {
    if (!p.open) {
      shownFor.current = null;
      return;
    }
    const key = String(p.user?.id ?? 'new');
    if (shownFor.current === key) return;
    shownFor.current = key;
    setF(initialState(p.user, p.apps));
    setTouched({});
    setServerErrors({});
    setSamlError(null);
    setFormError(null);
    setTab('single');
  }, [p.open, p.user?.id]);

  const deactivated = Boolean(p.user?.deactivated_at);
  const held = new Set(p.user?.allowedApps ?? []);
  // Hidden for a deactivated user, and when the tenant has one app the user already has.
  const appsShown = !deactivated && !(p.apps.length === 1 && held.has(p.apps[0]!.key));
  const clientErrors = userFormErrors(t, f, appsShown);
  // A server error, while the field is unchanged since, wins over the form's own check.
  const errors: Errors = { name: serverErrors.name ?? clientErrors.name, reading: serverErrors.reading ?? clientErrors.reading, email: serverErrors.email ?? clientErrors.email, apps: serverErrors.apps ?? clientErrors.apps };
  const valid = Object.keys(clientErrors).length === 0;
  // Why Add / Save is disabled: the first field still to fix, in the form's order (decision 0047).
  const firstError = clientErrors.name ?? clientErrors.reading ?? clientErrors.email ?? clientErrors.apps ?? null;
  const shownError = (k: keyof Errors) => (touched[k] || serverErrors[k] ? errors[k] : undefined);
  const set = (patch: Partial<FormState>) => setF((s) => ({ ...s, ...patch }));

  const payload = () => ({
    name: f.name.trim(),
    name_reading: f.reading.trim() || null,
    email: f.email.trim(),
    department_id: f.departmentId,
    is_admin: f.isAdmin,
    allowedApps: f.apps,
    additionalDepartmentIds: p.schedulerAllowed ? additionalWithoutMain(f.additional, f.departmentId) : [],
    saml_name_id: p.ssoOptions && f.sso ? f.samlNameId.trim() || null : editing ? (p.user!.saml_name_id ?? null) : null,
    is_sso_enabled: p.ssoOptions ? f.sso : Boolean(p.user?.is_sso_enabled),
  });

  const send = async () => {
    setBusy(true);
    setFormError(null);
    const r = editing ? await api(p.basePath, 'PATCH', `admin/users/${p.user!.id}`, payload()) : await api(p.basePath, 'POST', 'admin/users', payload());
    setBusy(false);
    setRemoval(null);
    if (r.ok) {
      p.onSaved(
        editing
          ? t(r.data.message === 'sent-register-mail-to-new-email-id' ? 'people.form.updatedNewEmail' : 'people.form.updated')
          : // An existing account (a member elsewhere) is added without an invitation.
            t(r.data.invited === false ? 'people.form.addedNoInvite' : 'people.form.added'),
        (r.data.user as PersonRow | undefined) ?? null,
      );
      return;
    }
    const code = r.data.message ?? '';
    if (code === 'saml-name-id-taken') {
      setSamlError(t('people.errors.samlNameIdTaken'));
      samlRef.current?.focus();
      return;
    }
    if (r.status === 422 && r.data.errors && typeof r.data.errors === 'object') {
      const fieldErrors = r.data.errors as Record<string, string[]>;
      const next: Errors = {};
      if (fieldErrors.name) next.name = fieldErrors.name[0];
      if (fieldErrors.name_reading) next.reading = fieldErrors.name_reading[0];
      if (fieldErrors.email) next.email = fieldErrors.email[0];
      if (fieldErrors.allowedApps) next.apps = fieldErrors.allowedApps[0];
      if (Object.keys(next).length) {
        setServerErrors(next);
        return;
      }
    }
    const known: Record<string, string> = editing
      ? {
          'cannot-make-last-admin-as-non-admin': 'people.errors.lastAdmin',
          'duplicate-email': 'people.errors.duplicateEmail',
          'belongs-to-multiple-tenants': 'people.errors.multipleTenants',
          'name-managed-by-user': 'people.errors.nameManagedByUser',
          'invitation-pending': 'people.errors.invitationPending',
          sso_users_limit_exceeded: 'people.errors.ssoLimit',
          quota_finished: 'people.errors.quotaFinished',
        }
      : {
          quota_finished: 'people.errors.quotaFinished',
          user_already_exists: 'people.errors.alreadyExists',
          sso_users_limit_exceeded: 'people.errors.ssoLimit',
        };
    const key = known[code];
    if (editing) {
      // Section 8: the edit errors are 10-second toasts.
      p.onError(t(key ?? 'errors.generic'), 10_000);
    } else {
      setFormError(t(key ?? 'people.errors.addFailed'));
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched({ name: true, reading: true, email: true, apps: true });
    if (!valid || busy) return;
    if (editing) {
      const removed = [...held].filter((a) => COUNTED[a] && !f.apps.includes(a));
      if (removed.length > 0 && appsShown) {
        setBusy(true);
        const parts: string[] = [];
        for (const app of removed) {
          const c = COUNTED[app]!;
          const r = await api<{ data?: number; count?: number }>(p.basePath, 'GET', `admin/users/${p.user!.id}/${c.path}`);
          const count = typeof r.data.data === 'number' ? r.data.data : typeof r.data.count === 'number' ? r.data.count : null;
          parts.push(count === null ? t(`${c.key}Unknown`) : t(c.key, { count }));
        }
        setBusy(false);
        setRemoval({ text: parts.join(' ') });
        return;
      }
    }
    await send();
  };

  const tabKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft' && e.key !== 'Home' && e.key !== 'End') return;
    e.preventDefault();
    const next = tab === 'single' ? 'csv' : 'single';
    setTab(e.key === 'Home' ? 'single' : e.key === 'End' ? 'csv' : next);
    document.getElementById(`${id}-tab-${e.key === 'Home' ? 'single' : e.key === 'End' ? 'csv' : next}`)?.focus();
  };

  const title = editing ? t('people.form.editTitle') : t('people.form.addTitle');
  const width = !editing && tab === 'csv' ? 'max-w-[800px]' : 'max-w-[600px]';
  const mainDeptId = `${id}-department`;

  const singleForm = (
    <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4" data-testid="user-form">
      <InlineNotice kind="error" text={formError} testId="user-form-error" />
      {/* Name and its reading side by side where they fit: the dialog keeps its height (decision 0045). */}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id={`${id}-name`}
          label={t('people.form.name')}
          value={f.name}
          onChange={(v) => {
            set({ name: v });
            setServerErrors((s) => ({ ...s, name: undefined }));
          }}
          onBlur={() => setTouched((s) => ({ ...s, name: true }))}
          error={shownError('name')}
          required
          requiredText={t('admin.common.required')}
          autoComplete="off"
          maxLength={255}
          inputRef={nameRef}
        />
        <TextField
          id={`${id}-reading`}
          label={t('people.form.reading')}
          value={f.reading}
          onChange={(v) => {
            set({ reading: v });
            setServerErrors((s) => ({ ...s, reading: undefined }));
          }}
          onBlur={() => setTouched((s) => ({ ...s, reading: true }))}
          error={shownError('reading')}
          autoComplete="off"
          maxLength={100}
        />
      </div>
      <TextField
        id={`${id}-email`}
        label={t('people.form.email')}
        type="email"
        value={f.email}
        onChange={(v) => {
          set({ email: v });
          setServerErrors((s) => ({ ...s, email: undefined }));
        }}
        onBlur={() => setTouched((s) => ({ ...s, email: true }))}
        error={shownError('email')}
        required
        requiredText={t('admin.common.required')}
        autoComplete="off"
        maxLength={254}
      />
      <div>
        <label htmlFor={mainDeptId} className="font-medium">
          {t('people.form.department')}
        </label>
        <select
          id={mainDeptId}
          value={f.departmentId ?? ''}
          onChange={(e) => set({ departmentId: e.target.value === '' ? null : Number(e.target.value) })}
          className="mt-1 block w-full rounded border border-slate-500 bg-white px-3 py-2 text-base"
        >
          <option value="">{t('people.form.noDepartment')}</option>
          {p.departments.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </select>
      </div>
      {p.schedulerAllowed && p.departments.length > 0 && (
        <fieldset className="m-0 border-0 p-0">
          <legend className="p-0 font-medium">{t('people.form.additionalDepartments')}</legend>
          <p className="m-0 mb-1 text-sm text-slate-700">{t('people.form.additionalHint')}</p>
          <div className="flex max-h-40 flex-col gap-1 overflow-auto">
            {p.departments
              .filter((d) => d.id !== f.departmentId)
              .map((d) => (
                <label key={d.id} className="flex items-center gap-2">
                  <input
                    type="checkbox"
                    checked={f.additional.includes(d.id)}
                    onChange={(e) => set({ additional: e.target.checked ? [...f.additional, d.id] : f.additional.filter((x) => x !== d.id) })}
                    className="h-4 w-4"
                  />
                  {d.name}
                </label>
              ))}
          </div>
        </fieldset>
      )}
      {appsShown && (
        <fieldset className="m-0 border-0 p-0" aria-describedby={errors.apps && (touched.apps || f.apps.length === 0) ? `${id}-apps-error` : undefined}>
          <legend className="p-0 font-medium">{t('people.form.apps')}</legend>
          <div className="mt-1 flex flex-col gap-1">
            {p.apps.map((a) => {
              const noSeat = !a.isSeatAvailable && !held.has(a.key);
              const checked = f.apps.includes(a.key);
              return (
                <div key={a.key}>
                  <label className={`flex items-center gap-2 ${noSeat ? 'text-slate-700' : ''}`}>
                    <input
                      type="checkbox"
                      checked={checked}
                      disabled={noSeat && !checked}
                      aria-describedby={noSeat ? `${id}-seat-${a.key}` : undefined}
                      onChange={(e) => set({ apps: e.target.checked ? [...f.apps, a.key] : f.apps.filter((x) => x !== a.key) })}
                      className="h-4 w-4"
                      data-testid={`app-${a.key}`}
                    />
                    {t(`apps.${a.key}`)}
                    {a.availableSeats !== null && <span className="text-sm text-slate-700">{t('people.form.seatsLeft', { count: a.availableSeats })}</span>}
                  </label>
                  {noSeat && (
                    <p id={`${id}-seat-${a.key}`} className="m-0 ml-6 text-sm text-red-800">
                      {t('people.form.noSeats')}
                    </p>
                  )}
                </div>
              );
            })}
          </div>
          {f.apps.length === 0 && (
            <p id={`${id}-apps-error`} role="alert" className="m-0 mt-1 text-sm text-amber-900" data-testid="apps-warning">
              {t('people.form.appsRequired')}
            </p>
          )}
        </fieldset>
      )}
      {!deactivated && (
        <div>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={f.isAdmin}
              onChange={(e) => set({ isAdmin: e.target.checked })}
              className="h-4 w-4"
              data-testid="is-admin"
              // The server refuses it (cannot-make-last-admin-as-non-admin): say so on the control
              // rather than after Save.
              disabled={p.lastAdmin && f.isAdmin}
              aria-describedby={p.lastAdmin ? `${id}-last-admin` : undefined}
            />
            {t('people.form.isAdmin')}
          </label>
          {p.lastAdmin && (
            <p id={`${id}-last-admin`} className="m-0 ml-6 mt-1 text-sm text-slate-700" data-testid="last-admin-reason">
              {t('people.form.lastAdminReason')}
            </p>
          )}
        </div>
      )}
      {p.ssoOptions && (
        <div className="flex flex-col gap-3">
          <Switch
            id={`${id}-sso`}
            label={t('people.form.sso')}
            checked={f.sso}
            onText={t('people.form.on')}
            offText={t('people.form.off')}
            onToggle={() =>
              // Turning SSO off puts the name id back: the stored one when editing, none when adding.
              set(f.sso ? { sso: false, samlNameId: editing ? (p.user!.saml_name_id ?? '') : '' } : { sso: true })
            }
          />
          {f.sso && (
            <TextField
              id={`${id}-name-id`}
              label={t('people.form.samlNameId')}
              value={f.samlNameId}
              onChange={(v) => {
                set({ samlNameId: v });
                setSamlError(null);
              }}
              error={samlError}
              autoComplete="off"
              maxLength={255}
              hint={t('people.form.samlNameIdHint')}
              inputRef={samlRef}
            />
          )}
        </div>
      )}
      {/* Without the script nothing sends this form (its button stays disabled until the island checks it). */}
      <noscript>
        <p className="m-0 text-sm text-amber-900">{t('people.form.needsScript')}</p>
      </noscript>
      <div className="flex justify-end gap-2">
        {p.closeHref && !hydrated ? (
          <a href={p.closeHref} className={`${BTN_SECONDARY} no-underline`}>
            {t('admin.common.cancel')}
          </a>
        ) : (
          <button type="button" className={BTN_SECONDARY} onClick={p.onClose} disabled={busy}>
            {t('admin.common.cancel')}
          </button>
        )}
        <button type="submit" className={BTN_PRIMARY} {...whyDisabled(`${id}-submit-why`, firstError, busy)} data-testid="user-form-submit">
          {t(editing ? 'admin.common.save' : 'people.form.addSubmit')}
        </button>
      </div>
      <WhyHint id={`${id}-submit-why`} reason={firstError} busy={busy} className="text-right" />
    </form>
  );

  return (
    <>
      <Dialog open={p.open && removal === null} labelledBy={`${id}-title`} onDismiss={() => !busy && p.onClose()} initialFocus={nameRef} returnFocus={p.returnFocus} className={width} testId="user-dialog">
        <h2 id={`${id}-title`} className="m-0 mb-4 text-lg font-semibold">
          {title}
        </h2>
        {editing ? (
          singleForm
        ) : (
          <>
            <div role="tablist" aria-label={title} className="mb-4 flex gap-1 border-b border-slate-300">
              {(['single', 'csv'] as const).map((k) => (
                <button
                  key={k}
                  id={`${id}-tab-${k}`}
                  type="button"
                  role="tab"
                  aria-selected={tab === k}
                  aria-controls={`${id}-panel-${k}`}
                  tabIndex={tab === k ? 0 : -1}
                  onClick={() => setTab(k)}
                  onKeyDown={tabKey}
                  className={`-mb-px border-b-2 px-4 py-2 ${tab === k ? 'border-blue-800 font-semibold text-blue-900' : 'border-transparent text-slate-800'}`}
                >
                  {t(k === 'single' ? 'people.form.tabSingle' : 'people.form.tabCsv')}
                </button>
              ))}
            </div>
            <div id={`${id}-panel-single`} role="tabpanel" aria-labelledby={`${id}-tab-single`} hidden={tab !== 'single'}>
              {singleForm}
            </div>
            <div id={`${id}-panel-csv`} role="tabpanel" aria-labelledby={`${id}-tab-csv`} hidden={tab !== 'csv'}>
              <CsvImport t={t} basePath={p.basePath} mode="add" onImported={p.onImported} />
              <div className="mt-4 flex justify-end">
                <button type="button" className={BTN_SECONDARY} onClick={p.onClose}>
                  {t('admin.common.close')}
                </button>
              </div>
            </div>
          </>
        )}
      </Dialog>
      <ConfirmDialog
        open={removal !== null}
        id={`${id}-removal`}
        title={t('people.form.removeTitle')}
        text={removal?.text ?? ''}
        confirmLabel={t('people.form.removeConfirm')}
        cancelLabel={t('admin.common.cancel')}
        danger
        busy={busy}
        onConfirm={() => void send()}
        onCancel={() => setRemoval(null)}
      />
    </>
  );
}
