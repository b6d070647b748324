// Tenant URL (spec 02 "Tenant settings screen", sections 4, 5 and 8): the initial and custom
// subdomains with their full URLs and copy buttons; the edit dialog (2-63 characters, letters or
// digits at both ends; Next disabled when unchanged or invalid; the new address previewed), then
// the password re-entry dialog, then PATCH admin/subdomain; on success the browser follows the
// hand-off URL to the new host, which lands here with ?status=changed ("subdomain changed", then
// the query is removed from the address bar).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { subdomainSchema } from '../../shared/tenant-settings/schemas';
import { api } from '../../shared/api';
import { getT, type Lang, type T } from '../../shared/i18n';
import { BTN_PRIMARY, BTN_SECONDARY, InlineNotice, TextField, Toast, useToast } from '../kit/admin-parts';
import CopyButton from '../kit/CopyButton';
import Dialog from '../kit/Dialog';
import { PasswordInput } from '../account/PasswordFields';

export interface TenantUrl {
  label: string;
  url: string;
}

export interface TenantUrlSettingsProps {
  lang: Lang;
  basePath: string;
  portalDomain: string;
  initial: TenantUrl;
  custom: TenantUrl | null;
  /** The page was opened with ?status=changed (after a change, on the new host). */
  changed: boolean;
}

type Step = 'closed' | 'edit' | 'password';

/** The custom subdomain as typed: null to remove it (empty), or the label, or an error key. */
export function readSubdomain(value: string): { ok: true; label: string | null } | { ok: false; error: string } {
  const v = value.trim();
  if (v === '') return { ok: true, label: null };
  const r = subdomainSchema.safeParse({ subdomain: v });
  if (!r.success) return { ok: false, error: r.error.issues[0]?.message ?? 'admin.subdomain.invalid' };
  return { ok: true, label: v.toLowerCase() };
}

function UrlRow({ t, kind, entry, onCopied }: { t: T; kind: 'initial' | 'custom'; entry: TenantUrl | null; onCopied: (ok: boolean) => void }) {
  const name = t(kind === 'initial' ? 'tenantSettings.initial' : 'tenantSettings.custom');
  return (
    <tr role="row" className="border-t border-slate-200" data-testid={`tenant-url-${kind}`}>
      <th role="rowheader" scope="row" className="px-4 py-3 text-left font-medium">
        {name}
      </th>
      <td role="cell" className="px-4 py-3" data-label={t('tenantSettings.colSubdomain')}>{entry ? entry.label : t('tenantSettings.notAvailable')}</td>
      <td role="cell" className="tu-url px-4 py-3" data-label={t('tenantSettings.colUrl')}>{entry ? entry.url : t('tenantSettings.notAvailable')}</td>
      <td role="cell" className="tu-copy px-4 py-3">
        {entry && <CopyButton t={t} text={entry.url} label={t('tenantSettings.copyLabel', { kind: name })} quiet onCopied={onCopied} />}
      </td>
    </tr>
  );
}

export default function TenantUrlSettings(p: TenantUrlSettingsProps) {
  const t = getT(p.lang);
  const { toast, show, close } = useToast();
  const [step, setStep] = useState<Step>('closed');
  const [value, setValue] = useState(p.custom?.label ?? '');
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [wait, setWait] = useState(0);
  const fieldRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const backToField = useRef(false);

  // After a change: say so once, and drop the query so a reload does not say it again.
  useEffect(() => {
    if (!p.changed) return;
    show('success', t('tenantSettings.changed'));
    const url = new URL(window.location.href);
    url.searchParams.delete('status');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  }, []);
  useEffect(() => {
    if (wait <= 0) return;
    const id = setTimeout(() => setWait((s) => s - 1), 1000);
    return () => clearTimeout(id);
  }, [wait]);

  const current = p.custom?.label ?? null;
  const read = readSubdomain(value);
  const unchanged = read.ok && read.label === current;
  const fieldError = serverError ?? (touched && !read.ok ? t(read.error) : null);
  const canContinue = read.ok && !unchanged && !busy;
  const preview = read.ok ? `${read.label ?? p.initial.label}.${p.portalDomain}` : null;

  const copied = (ok: boolean) => show(ok ? 'success' : 'error', t(ok ? 'tenantSettings.copied' : 'tenantSettings.copyFailed'));

  const openEdit = () => {
    setValue(current ?? '');
    setTouched(false);
    setServerError(null);
    setDialogError(null);
    setStep('edit');
  };

  const next = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!canContinue) return;
    setPassword('');
    setPasswordError(null);
    setDialogError(null);
    setStep('password');
  };

  /** Back to the edit dialog with a message on the field. */
  const backToEdit = (message: string) => {
    setServerError(message);
    backToField.current = true;
    setStep('edit');
  };

  const change = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || wait > 0 || !read.ok) return;
    if (!password) {
      setPasswordError(t('validation.required'));
      passwordRef.current?.focus();
      return;
    }
    setBusy(true);
    setPasswordError(null);
    setDialogError(null);
    const verified = await api<{ duration?: number }>(p.basePath, 'POST', 'password/verify', { password, redirect: 'admin/subdomain' });
    if (!verified.ok) {
      setBusy(false);
      if (verified.status === 429) return setWait(Math.max(1, Math.ceil(Number(verified.data.duration) || 60)));
      if (verified.data.message === 'wrong_password') {
        setPasswordError(t('tenantSettings.passwordsDiffer'));
        passwordRef.current?.select();
        return;
      }
      return setDialogError(t('errors.generic'));
    }
    const r = await api<{ url?: string; errors?: Record<string, string[]> }>(p.basePath, 'PATCH', 'admin/subdomain', { subdomain: read.label });
    if (r.ok && typeof r.data.url === 'string') {
      // The hand-off signs the browser in on the new host and lands on this page there.
      window.location.assign(r.data.url);
      return;
    }
    setBusy(false);
    if (r.data.message === 'could-not-change') return backToEdit(t('tenantSettings.couldNotChange'));
    const fieldMessage = r.data.errors?.subdomain?.[0];
    if (r.status === 422 && fieldMessage) return backToEdit(fieldMessage);
    setDialogError(t('errors.generic'));
  };

  return (
    <div>
      <div className="max-w-4xl overflow-x-auto rounded-lg bg-white shadow">
        <table role="table" className="tu-table w-full border-collapse text-left">
          <caption className="sr-only">{t('tenantSettings.caption')}</caption>
          <thead role="rowgroup" className="bg-slate-100 text-sm">
            <tr role="row">
              <th role="columnheader" scope="col" className="px-4 py-2 font-semibold">
                {t('tenantSettings.colKind')}
              </th>
              <th role="columnheader" scope="col" className="px-4 py-2 font-semibold">
                {t('tenantSettings.colSubdomain')}
              </th>
              <th role="columnheader" scope="col" className="px-4 py-2 font-semibold">
                {t('tenantSettings.colUrl')}
              </th>
              <th role="columnheader" scope="col" className="px-4 py-2 font-semibold">
                {t('tenantSettings.colActions')}
              </th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            <UrlRow t={t} kind="initial" entry={p.initial} onCopied={copied} />
            <UrlRow t={t} kind="custom" entry={p.custom} onCopied={copied} />
          </tbody>
        </table>
      </div>
      <button type="button" className={`${BTN_PRIMARY} mt-4`} onClick={openEdit}>
        {t('tenantSettings.edit')}
      </button>

      <Dialog
        open={step !== 'closed'}
        labelledBy="subdomain-dialog-title"
        describedBy="subdomain-dialog-text"
        onDismiss={() => {
          if (!busy && step === 'edit') setStep('closed');
        }}
        initialFocus={fieldRef}
        className="max-w-lg"
        testId="subdomain-dialog"
      >
        <h2 id="subdomain-dialog-title" className="m-0 text-lg font-semibold">
          {t('tenantSettings.dialogTitle')}
        </h2>
        <p id="subdomain-dialog-text" className="mb-4 mt-3 text-slate-800">
          {t('tenantSettings.dialogText')}
        </p>
        <form noValidate onSubmit={next} className="flex flex-col gap-3">
          <TextField
            id="custom-subdomain"
            label={t('tenantSettings.field')}
            value={value}
            onChange={(v) => {
              setValue(v);
              setTouched(true);
              setServerError(null);
            }}
            error={fieldError}
            hint={t('tenantSettings.hint')}
            autoComplete="off"
            maxLength={100}
            inputRef={fieldRef}
            describedBy="subdomain-preview"
          />
          <p id="subdomain-preview" className="m-0 min-h-6 text-sm text-slate-800" data-testid="subdomain-preview" aria-live="polite">
            {preview && t('tenantSettings.preview', { address: preview })}
          </p>
          <div className="mt-2 flex justify-end gap-2">
            <button type="button" className={BTN_SECONDARY} onClick={() => setStep('closed')} disabled={busy}>
              {t('admin.common.cancel')}
            </button>
            <button type="submit" className={BTN_PRIMARY} disabled={!canContinue} aria-describedby={!canContinue && !busy ? 'subdomain-why' : undefined}>
              {t('tenantSettings.next')}
            </button>
          </div>
          {/* A disabled button says why (issue 27 part 7). */}
          {!canContinue && !busy && (
            <p id="subdomain-why" className="m-0 text-right text-sm text-slate-700" data-testid="next-why">
              {t(unchanged ? 'admin.common.unchangedHint' : 'admin.common.fixToSave')}
            </p>
          )}
        </form>
      </Dialog>

      <Dialog
        open={step === 'password'}
        labelledBy="subdomain-password-title"
        describedBy="subdomain-password-text"
        onDismiss={() => {
          if (!busy) setStep('edit');
        }}
        initialFocus={passwordRef}
        returnFocus={() => {
          if (!backToField.current) return null;
          backToField.current = false;
          return fieldRef.current;
        }}
        testId="subdomain-password-dialog"
      >
        <h2 id="subdomain-password-title" className="m-0 text-lg font-semibold">
          {t('tenantSettings.passwordTitle')}
        </h2>
        <p id="subdomain-password-text" className="mb-4 mt-3 text-slate-800">
          {t('tenantSettings.passwordText')}
        </p>
        <InlineNotice kind="error" text={wait > 0 ? t('tenantSettings.throttled', { seconds: wait }) : dialogError} id="subdomain-confirm-notice" />
        <form noValidate onSubmit={change} className="flex flex-col gap-3">
          <PasswordInput
            t={t}
            id="subdomain-password"
            label={t('tenantSettings.password')}
            value={password}
            onChange={(v) => {
              setPassword(v);
              setPasswordError(null);
            }}
            autoComplete="current-password"
            error={passwordError}
            inputRef={passwordRef}
          />
          <div className="mt-2 flex justify-end gap-2">
            <button type="button" className={BTN_SECONDARY} onClick={() => setStep('edit')} disabled={busy}>
              {t('admin.common.cancel')}
            </button>
            <button type="submit" className={BTN_PRIMARY} disabled={busy || wait > 0} aria-describedby={!busy && wait > 0 ? 'subdomain-confirm-notice' : undefined}>
              {t('tenantSettings.change')}
            </button>
          </div>
        </form>
      </Dialog>
      <Toast t={t} toast={toast} onClose={close} />
    </div>
  );
}
