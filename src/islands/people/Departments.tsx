// Departments (spec 02 "Departments screen", sections 5 and 8): name, users count (own users plus
// additional users), created at, and add / edit / delete. A name is required; a name already used
// is refused by the server (422); a department that still has users cannot be deleted.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';
import { departmentSchema } from '../../shared/people/schemas';
import { BTN_PRIMARY, BTN_SECONDARY, ConfirmDialog, InlineNotice, TextField, Toast, useToast } from '../kit/admin-parts';
import Dialog from '../kit/Dialog';
import { DataTable } from '../kit/DataTable';
import { DateCell } from './people-parts';
import type { DepartmentRow } from './people-types';
import { WhyHint, whyDisabled } from '../kit/why-hint';

export interface DepartmentsProps {
  lang: Lang;
  basePath: string;
  departments: DepartmentRow[];
}

export default function Departments(p: DepartmentsProps) {
  const t = getT(p.lang);
  const { toast, show, close } = useToast();
  const [rows, setRows] = useState(p.departments);
  const [hydrated, setHydrated] = useState(false);
  const [editing, setEditing] = useState<{ dept: DepartmentRow | null } | null>(null);
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [pendingDelete, setPendingDelete] = useState<DepartmentRow | null>(null);
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    setHydrated(true);
  }, []);

  const reload = async () => {
    const r = await api<DepartmentRow[]>(p.basePath, 'GET', 'admin/departments');
    if (r.ok && Array.isArray(r.data)) setRows(r.data);
  };

  const open = (dept: DepartmentRow | null) => {
    setEditing({ dept });
    setName(dept?.name ?? '');
    setTouched(false);
    setServerError(null);
    setDialogError(null);
  };

  const parsed = departmentSchema.safeParse({ name });
  const clientError = parsed.success ? null : t(parsed.error.issues[0]?.message ?? 'validation.required');
  const nameError = serverError ?? (touched ? clientError : null);
  // Why Add / Save waits (decision 0047): an empty name says what to do rather than "Required".
  const saveWhy = parsed.success ? null : name.trim() === '' ? t('people.departments.saveWhy') : clientError;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!parsed.success || busy || !editing) {
      nameRef.current?.focus();
      return;
    }
    setBusy(true);
    setDialogError(null);
    const dept = editing.dept;
    const r = dept ? await api(p.basePath, 'PATCH', `admin/departments/${dept.id}`, parsed.data) : await api(p.basePath, 'POST', 'admin/departments', parsed.data);
    setBusy(false);
    if (r.ok) {
      setEditing(null);
      show('success', t(dept ? 'people.departments.updated' : 'people.departments.added'));
      await reload();
      return;
    }
    if (r.status === 422) {
      setServerError(t('people.departments.nameExists'));
      nameRef.current?.focus();
      return;
    }
    setDialogError(t(dept ? 'people.departments.editFailed' : 'people.departments.addFailed'));
  };

  const remove = async () => {
    const dept = pendingDelete;
    if (!dept || busy) return;
    setBusy(true);
    const r = await api(p.basePath, 'DELETE', `admin/departments/${dept.id}`);
    setBusy(false);
    setPendingDelete(null);
    if (r.ok) {
      show('success', t('people.departments.deleted', { name: dept.name }));
      await reload();
      return;
    }
    if (r.data.message === 'cannot-delete-department-with-users') show('error', t('people.departments.hasUsers'), 10_000);
    else show('error', t('errors.generic'));
  };

  const dialogTitle = editing?.dept ? t('people.departments.editTitle') : t('people.departments.addTitle');
  return (
    <div className="flex flex-col gap-4">
      {/* With no department yet the table's empty state offers this button instead (one, not two). */}
      {rows.length > 0 && (
        <div>
          <button type="button" className={BTN_PRIMARY} disabled={!hydrated} onClick={() => open(null)}>
            {t('people.departments.add')}
          </button>
        </div>
      )}
      <h2 ref={headingRef} tabIndex={-1} className="sr-only">
        {t('people.departments.listHeading')}
      </h2>
      <DataTable<DepartmentRow>
        t={t}
        testId="departments-table"
        caption={t('people.departments.listHeading')}
        columns={[
          { key: 'name', header: t('people.departments.colName'), truncate: (d) => d.name, render: (d) => <span className="font-medium">{d.name}</span> },
          { key: 'users', header: t('people.departments.colUsers'), width: 'w-[7rem]', render: (d) => <span data-testid="department-users">{d.users_count + d.additional_users_count}</span> },
          { key: 'created_at', header: t('people.cols.createdAt'), width: 'w-[14rem]', className: 'whitespace-nowrap', render: (d) => <DateCell value={d.created_at} lang={p.lang} /> },
        ]}
        rows={rows}
        rowKey={(d) => d.id}
        rowAttrs={(d) => ({ 'data-testid': 'department-row', 'data-id': d.id })}
        minWidth="min-w-[36rem]"
        actions={{
          kind: 'buttons',
          header: t('people.cols.actions'),
          width: p.lang === 'ja' ? 'w-[8rem]' : 'w-[9rem]',
          items: (d) => [
            { label: t('admin.common.edit'), ariaLabel: t('people.departments.editLabel', { name: d.name }), disabled: !hydrated, onSelect: () => open(d) },
            { label: t('admin.common.delete'), ariaLabel: t('people.departments.deleteLabel', { name: d.name }), danger: true, disabled: !hydrated, onSelect: () => setPendingDelete(d) },
          ],
        }}
        empty={{
          text: t('people.departments.empty'),
          action: (
            <button type="button" className={BTN_PRIMARY} disabled={!hydrated} onClick={() => open(null)}>
              {t('people.departments.add')}
            </button>
          ),
        }}
      />
      <Dialog open={editing !== null} labelledBy="department-dialog-title" onDismiss={() => !busy && setEditing(null)} initialFocus={nameRef} testId="department-dialog">
        <h2 id="department-dialog-title" className="m-0 mb-4 text-lg font-semibold">
          {dialogTitle}
        </h2>
        <form noValidate onSubmit={(e) => void save(e)} className="flex flex-col gap-4">
          <InlineNotice kind="error" text={dialogError} />
          <TextField
            id="department-name"
            label={t('people.departments.name')}
            value={name}
            onChange={(v) => {
              setName(v);
              setServerError(null);
            }}
            onBlur={() => setTouched(true)}
            error={nameError}
            required
            requiredText={t('admin.common.required')}
            autoComplete="off"
            maxLength={255}
            inputRef={nameRef}
          />
          <div className="flex justify-end gap-2">
            <button type="button" className={BTN_SECONDARY} disabled={busy} onClick={() => setEditing(null)}>
              {t('admin.common.cancel')}
            </button>
            <button type="submit" className={BTN_PRIMARY} {...whyDisabled('department-why', saveWhy, busy)}>
              {t(editing?.dept ? 'admin.common.save' : 'people.departments.addSubmit')}
            </button>
          </div>
          <WhyHint id="department-why" reason={saveWhy} busy={busy} className="text-right" />
        </form>
      </Dialog>
      <ConfirmDialog
        open={pendingDelete !== null}
        id="department-delete"
        title={t('people.departments.deleteTitle')}
        text={pendingDelete ? t('people.departments.deleteText', { name: pendingDelete.name }) : ''}
        confirmLabel={t('admin.common.delete')}
        cancelLabel={t('admin.common.cancel')}
        danger
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setPendingDelete(null)}
        returnFocus={() => (document.activeElement && document.activeElement !== document.body ? null : headingRef.current)}
      />
      <Toast t={t} toast={toast} onClose={close} />
    </div>
  );
}
