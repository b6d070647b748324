// Contact details (spec 02 "Contact details screen", sections 4, 5, 7 and 8): the primary contact
// (edit only) and the billing contact (register when absent; edit or delete when present), each
// with company name, name, department, job title, email, phone and address (postal code, then
// address). The dialog checks the required fields (non-blank after trimming) and the email; the
// department and job title are optional. The contacts are fetched again after a deletion.
import { useRef, useState, type FormEvent } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang, type T } from '../../shared/i18n';
import { BTN_PRIMARY, BTN_SECONDARY, BTN_SMALL, BTN_SMALL_DANGER, CARD, ConfirmDialog, InlineNotice, TextField, Toast, useToast } from '../kit/admin-parts';
import Dialog from '../kit/Dialog';
import { contactSchema } from '../../shared/billing/schemas';

/** A contact as GET /admin/tenant-contacts reads it. */
export interface Contact {
  id: number;
  company_name: string;
  name: string;
  department: string | null;
  position: string | null;
  email: string;
  contact_number: string;
  postal_code: string;
  address: string;
}

export interface ContactDetailsProps {
  lang: Lang;
  basePath: string;
  primary: Contact | null;
  billing: Contact | null;
}

type FieldName = 'companyName' | 'name' | 'department' | 'position' | 'email' | 'contactNumber' | 'postalCode' | 'address';
type Form = Record<FieldName, string>;
type Mode = { kind: 'primary'; id: number } | { kind: 'billing-create' } | { kind: 'billing-edit'; id: number };

const FIELDS: { name: FieldName; label: string; required: boolean; type?: 'email' | 'tel'; autoComplete: string; maxLength: number }[] = [
  { name: 'companyName', label: 'contacts.companyName', required: true, autoComplete: 'organization', maxLength: 255 },
  { name: 'name', label: 'contacts.name', required: true, autoComplete: 'name', maxLength: 255 },
  { name: 'department', label: 'contacts.department', required: false, autoComplete: 'off', maxLength: 255 },
  { name: 'position', label: 'contacts.position', required: false, autoComplete: 'organization-title', maxLength: 255 },
  { name: 'email', label: 'contacts.email', required: true, type: 'email', autoComplete: 'email', maxLength: 254 },
  { name: 'contactNumber', label: 'contacts.contactNumber', required: true, type: 'tel', autoComplete: 'tel', maxLength: 32 },
  { name: 'postalCode', label: 'contacts.postalCode', required: true, autoComplete: 'postal-code', maxLength: 16 },
  { name: 'address', label: 'contacts.address', required: true, autoComplete: 'street-address', maxLength: 500 },
];

const EMPTY: Form = { companyName: '', name: '', department: '', position: '', email: '', contactNumber: '', postalCode: '', address: '' };

function formOf(c: Contact | null): Form {
  if (!c) return EMPTY;
  return {
    companyName: c.company_name,
    name: c.name,
    department: c.department ?? '',
    position: c.position ?? '',
    email: c.email,
    contactNumber: c.contact_number,
    postalCode: c.postal_code,
    address: c.address,
  };
}

/** Field -> i18n key of its first problem. */
export function contactErrors(form: Form): Partial<Record<FieldName, string>> {
  const r = contactSchema.safeParse(form);
  const errors: Partial<Record<FieldName, string>> = {};
  if (r.success) return errors;
  for (const issue of r.error.issues) {
    const field = issue.path[0] as FieldName;
    errors[field] ??= issue.message;
  }
  return errors;
}

function ContactCard({ t, contact, testId }: { t: T; contact: Contact; testId: string }) {
  // One column on a phone (label over value), side by side from 640px: 9rem of label left 6 characters a line at 320px.
  const row = 'grid grid-cols-1 gap-x-2 py-1 sm:grid-cols-[11rem_minmax(0,1fr)]';
  const value = (v: string | null) => (v ? v : <span className="text-slate-700">{t('admin.common.notSet')}</span>);
  return (
    <dl className="m-0" data-testid={testId}>
      <div className={row}>
        <dt className="text-slate-700">{t('contacts.companyName')}</dt>
        <dd className="m-0 break-words">{contact.company_name}</dd>
      </div>
      <div className={row}>
        <dt className="text-slate-700">{t('contacts.name')}</dt>
        <dd className="m-0 break-words">{contact.name}</dd>
      </div>
      <div className={row}>
        <dt className="text-slate-700">{t('contacts.department')}</dt>
        <dd className="m-0 break-words">{value(contact.department)}</dd>
      </div>
      <div className={row}>
        <dt className="text-slate-700">{t('contacts.position')}</dt>
        <dd className="m-0 break-words">{value(contact.position)}</dd>
      </div>
      <div className={row}>
        <dt className="text-slate-700">{t('contacts.email')}</dt>
        <dd className="m-0 break-all">{contact.email}</dd>
      </div>
      <div className={row}>
        <dt className="text-slate-700">{t('contacts.contactNumber')}</dt>
        <dd className="m-0">{contact.contact_number}</dd>
      </div>
      <div className={row}>
        <dt className="text-slate-700">{t('contacts.address')}</dt>
        <dd className="m-0 break-words">{t('contacts.addressValue', { postalCode: contact.postal_code, address: contact.address })}</dd>
      </div>
    </dl>
  );
}

export default function ContactDetails(p: ContactDetailsProps) {
  const t = getT(p.lang);
  const { toast, show, close } = useToast();
  const [primary, setPrimary] = useState(p.primary);
  const [billing, setBilling] = useState(p.billing);
  const [mode, setMode] = useState<Mode | null>(null);
  const [form, setForm] = useState<Form>(EMPTY);
  // Errors show from the first Save on, then follow the typing. (Not on blur: a message appearing
  // under a field as the pointer goes down on Save moves Save away before the click lands.)
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [busy, setBusy] = useState(false);
  const firstFieldRef = useRef<HTMLInputElement>(null);
  const billingHeadingRef = useRef<HTMLHeadingElement>(null);
  const lastMode = useRef<Mode | null>(null);

  const errors = contactErrors(form);
  const errorOf = (f: FieldName) => serverErrors[f] ?? (submitted && errors[f] ? t(errors[f]) : null);

  const open = (m: Mode, c: Contact | null) => {
    setForm(formOf(c));
    setSubmitted(false);
    setServerErrors({});
    setDialogError(null);
    lastMode.current = m;
    setMode(m);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!mode || busy) return;
    const problems = Object.keys(errors) as FieldName[];
    setSubmitted(true);
    if (problems.length) {
      document.getElementById(`contact-${FIELDS.find((f) => problems.includes(f.name))!.name}`)?.focus();
      return;
    }
    setBusy(true);
    setDialogError(null);
    const body = { ...form, department: form.department.trim() || null, position: form.position.trim() || null };
    const r =
      mode.kind === 'billing-create'
        ? await api<Contact & { errors?: Record<string, string[]> }>(p.basePath, 'POST', 'admin/tenant-contacts/billing-contact', body)
        : await api<Contact & { errors?: Record<string, string[]> }>(p.basePath, 'PATCH', `admin/tenant-contacts/${mode.id}`, body);
    setBusy(false);
    if (r.ok) {
      const saved = r.data as Contact;
      if (mode.kind === 'primary') setPrimary(saved);
      else setBilling(saved);
      setMode(null);
      show('success', t(mode.kind === 'primary' ? 'contacts.primaryUpdated' : mode.kind === 'billing-create' ? 'contacts.billingCreated' : 'contacts.billingUpdated'));
      return;
    }
    const fieldErrors = r.data.errors;
    if (r.status === 422 && fieldErrors) {
      const mapped: Partial<Record<FieldName, string>> = {};
      for (const f of FIELDS) if (fieldErrors[f.name]?.[0]) mapped[f.name] = fieldErrors[f.name]![0];
      if (Object.keys(mapped).length) {
        setServerErrors(mapped);
        return;
      }
    }
    setDialogError(t('errors.generic'));
  };

  const remove = async () => {
    if (!billing || busy) return;
    setBusy(true);
    const r = await api(p.basePath, 'DELETE', `admin/tenant-contacts/${billing.id}`);
    if (r.ok) {
      show('success', t('contacts.billingDeleted'));
    } else {
      show('error', t('errors.generic'));
    }
    // Fetched again after a deletion (spec 02 section 4), also after a failed one.
    const fresh = await api<{ primary_contact: Contact | null; billing_contact: Contact | null }>(p.basePath, 'GET', 'admin/tenant-contacts');
    if (fresh.ok) {
      setPrimary(fresh.data.primary_contact);
      setBilling(fresh.data.billing_contact);
    } else if (r.ok) {
      setBilling(null);
    }
    setBusy(false);
    setConfirmDelete(false);
  };

  const title =
    mode?.kind === 'primary' ? t('contacts.dialogPrimary') : mode?.kind === 'billing-create' ? t('contacts.dialogRegister') : t('contacts.dialogBilling');
  return (
    <div className="grid max-w-5xl grid-cols-1 gap-6 lg:grid-cols-2">
      <section aria-labelledby="primary-contact-heading" className={CARD}>
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id="primary-contact-heading" className="m-0 text-lg font-semibold">
            {t('contacts.primaryHeading')}
          </h2>
          {primary && (
            <button type="button" className={BTN_SMALL} onClick={() => open({ kind: 'primary', id: primary.id }, primary)}>
              {t('contacts.editPrimary')}
            </button>
          )}
        </div>
        {primary ? <ContactCard t={t} contact={primary} testId="primary-contact" /> : <p className="m-0 text-slate-700">{t('contacts.primaryMissing')}</p>}
      </section>

      <section aria-labelledby="billing-contact-heading" className={CARD}>
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id="billing-contact-heading" ref={billingHeadingRef} tabIndex={-1} className="m-0 text-lg font-semibold outline-none">
            {t('contacts.billingHeading')}
          </h2>
          {billing && (
            <div className="flex gap-2">
              <button type="button" className={BTN_SMALL} onClick={() => open({ kind: 'billing-edit', id: billing.id }, billing)}>
                {t('contacts.editBilling')}
              </button>
              <button type="button" className={BTN_SMALL_DANGER} onClick={() => setConfirmDelete(true)}>
                {t('contacts.deleteBilling')}
              </button>
            </div>
          )}
        </div>
        {billing ? (
          <ContactCard t={t} contact={billing} testId="billing-contact" />
        ) : (
          <div>
            <p className="m-0 mb-3 text-slate-700" data-testid="billing-missing">
              {t('contacts.billingMissing')}
            </p>
            <button type="button" className={BTN_PRIMARY} onClick={() => open({ kind: 'billing-create' }, null)}>
              {t('contacts.register')}
            </button>
          </div>
        )}
      </section>

      <Dialog
        open={mode !== null}
        labelledBy="contact-dialog-title"
        onDismiss={() => {
          if (!busy) setMode(null);
        }}
        initialFocus={firstFieldRef}
        // After registering, the Register button is gone: the section heading takes the focus.
        returnFocus={() => (lastMode.current?.kind === 'billing-create' && billing ? billingHeadingRef.current : null)}
        className="max-w-xl"
        testId="contact-dialog"
      >
        <h2 id="contact-dialog-title" className="m-0 mb-4 text-lg font-semibold">
          {title}
        </h2>
        <InlineNotice kind="error" text={dialogError} />
        <form noValidate onSubmit={submit} className="flex flex-col gap-3">
          {FIELDS.map((f, i) => (
            <TextField
              key={f.name}
              id={`contact-${f.name}`}
              label={t(f.label)}
              type={f.type}
              value={form[f.name]}
              onChange={(v) => {
                setForm((x) => ({ ...x, [f.name]: v }));
                setServerErrors((x) => ({ ...x, [f.name]: undefined }));
              }}
              error={errorOf(f.name)}
              required={f.required}
              requiredText={t('admin.common.required')}
              autoComplete={f.autoComplete}
              maxLength={f.maxLength}
              inputRef={i === 0 ? firstFieldRef : undefined}
            />
          ))}
          <div className="mt-2 flex justify-end gap-2">
            <button type="button" className={BTN_SECONDARY} disabled={busy} onClick={() => setMode(null)}>
              {t('admin.common.cancel')}
            </button>
            <button type="submit" className={BTN_PRIMARY} disabled={busy}>
              {t('admin.common.save')}
            </button>
          </div>
        </form>
      </Dialog>
      <ConfirmDialog
        open={confirmDelete}
        id="billing-delete-confirm"
        title={t('contacts.deleteTitle')}
        text={t('contacts.deleteText')}
        confirmLabel={t('admin.common.delete')}
        cancelLabel={t('admin.common.cancel')}
        danger
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setConfirmDelete(false)}
        returnFocus={() => (billing ? null : billingHeadingRef.current)}
      />
      <Toast t={t} toast={toast} onClose={close} />
    </div>
  );
}
