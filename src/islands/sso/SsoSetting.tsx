// SSO settings (spec 02 "SSO settings screen", "Tenant SSO"): the service provider's values to
// register at the IdP, the IdP settings form (entity id, sign-on URL, optional sign-out URL,
// certificate with its expiry), a connection test in a new window, and the enable switch: disabled
// until settings are stored on the server, reverting when the call fails.
import { useRef, useState, type FormEvent } from 'react';
import { api } from '../../shared/api';
import { formatDateTime } from '../../shared/dates';
import { getT, type Lang } from '../../shared/i18n';
import { BTN_PRIMARY, BTN_SECONDARY, CARD, INPUT, Switch, TextField, Toast, useToast } from '../kit/admin-parts';
import CopyButton from '../kit/CopyButton';
import { samlSettingSchema } from '../../shared/sso/schemas';

export interface SsoSettingProps {
  lang: Lang;
  basePath: string;
  sp: { entity_id: string; acs_url: string; metadata_url: string; sls_url: string };
  setting: { idp_entity_id: string; idp_sso_url: string; idp_slo_url: string | null; idp_x509cert: string; certificate_expires_at: string | null } | null;
  enabled: boolean;
  /** saml2/all/login on the tenant's initial host with RelayState saml-test-passed. */
  testUrl: string;
  certificateExpired: boolean;
}

type Field = 'idpEntityId' | 'idpSsoUrl' | 'idpSloUrl' | 'idpCertificate';

export default function SsoSetting(p: SsoSettingProps) {
  const t = getT(p.lang);
  const { toast, show, close } = useToast();
  const [form, setForm] = useState<Record<Field, string>>({
    idpEntityId: p.setting?.idp_entity_id ?? '',
    idpSsoUrl: p.setting?.idp_sso_url ?? '',
    idpSloUrl: p.setting?.idp_slo_url ?? '',
    idpCertificate: p.setting?.idp_x509cert ?? '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [stored, setStored] = useState(Boolean(p.setting));
  const [expiresAt, setExpiresAt] = useState(p.setting?.certificate_expires_at ?? null);
  const [expired, setExpired] = useState(p.certificateExpired);
  const [enabled, setEnabled] = useState(p.enabled);
  const [busy, setBusy] = useState(false);
  const firstErrorRef = useRef<HTMLFormElement>(null);

  const set = (k: Field) => (v: string) => {
    setForm((f) => ({ ...f, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const parsed = samlSettingSchema.safeParse(form);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as Field] ??= t(issue.message);
      setErrors(next);
      firstErrorRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    setBusy(true);
    const r = await api<{ errors?: Record<string, string[]>; saml_setting?: SsoSettingProps['setting'] }>(p.basePath, 'POST', 'admin/saml', parsed.data);
    setBusy(false);
    if (r.ok) {
      setStored(true);
      const at = r.data.saml_setting?.certificate_expires_at ?? null;
      setExpiresAt(at);
      setExpired(at !== null && Date.parse(at) <= Date.now());
      show('success', t('sso.saved'));
      return;
    }
    if (r.status === 422 && r.data.errors) {
      const next: Partial<Record<Field, string>> = {};
      for (const [k, v] of Object.entries(r.data.errors)) next[k as Field] = v[0];
      setErrors(next);
      setTimeout(() => firstErrorRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      return;
    }
    show('error', t('errors.reload'));
  };

  const toggle = async () => {
    const next = !enabled;
    setEnabled(next);
    setBusy(true);
    const r = await api(p.basePath, 'PATCH', 'admin/saml/configure-idp-status', { isIdpConfigured: next });
    setBusy(false);
    if (r.ok) {
      show('success', t(next ? 'sso.enabled' : 'sso.disabled'));
      return;
    }
    setEnabled(!next);
    show('error', t('errors.reload'));
  };

  const copied = (ok: boolean) => show(ok ? 'success' : 'error', t(ok ? 'sso.copied' : 'errors.generic'));

  const spRows: [string, string][] = [
    [t('sso.entityId'), p.sp.entity_id],
    [t('sso.acsUrl'), p.sp.acs_url],
    [t('sso.metadataUrl'), p.sp.metadata_url],
    [t('sso.slsUrl'), p.sp.sls_url],
  ];
  const certError = errors.idpCertificate;
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <section aria-labelledby="sso-switch-heading" className={CARD}>
        <h2 id="sso-switch-heading" className="sr-only">
          {t('sso.switchLabel')}
        </h2>
        <Switch
          id="sso-switch"
          label={t('sso.switchLabel')}
          checked={enabled}
          disabled={busy || !stored}
          onText={t('ipRestriction.on')}
          offText={t('ipRestriction.off')}
          describedBy={!stored ? 'sso-switch-hint' : undefined}
          onToggle={() => void toggle()}
        />
        {!stored && (
          <p id="sso-switch-hint" className="m-0 mt-2 text-sm text-slate-700">
            {t('sso.switchHint')}
          </p>
        )}
      </section>

      <section aria-labelledby="sso-sp-heading" className={CARD}>
        <h2 id="sso-sp-heading" className="m-0 mb-1 text-lg font-semibold">
          {t('sso.spHeading')}
        </h2>
        <p className="m-0 mb-3 text-sm text-slate-700">{t('sso.spHint')}</p>
        <dl className="m-0 flex flex-col gap-3">
          {spRows.map(([label, value]) => (
            <div key={label}>
              <dt className="font-medium">{label}</dt>
              <dd className="m-0 flex flex-wrap items-center gap-2">
                <code className="break-all text-sm" data-testid={`sp-${label}`}>
                  {value}
                </code>
                <CopyButton t={t} text={value} label={t('sso.copy', { label })} quiet onCopied={copied} />
              </dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="sso-idp-heading" className={CARD}>
        <h2 id="sso-idp-heading" className="m-0 mb-3 text-lg font-semibold">
          {t('sso.idpHeading')}
        </h2>
        <form ref={firstErrorRef} noValidate onSubmit={save} className="flex flex-col gap-3">
          <TextField id="sso-idp-entity-id" label={t('sso.idpEntityId')} value={form.idpEntityId} onChange={set('idpEntityId')} error={errors.idpEntityId} required requiredText={t('admin.common.required')} autoComplete="off" maxLength={1024} />
          <TextField id="sso-idp-sso-url" label={t('sso.idpSsoUrl')} value={form.idpSsoUrl} onChange={set('idpSsoUrl')} error={errors.idpSsoUrl} required requiredText={t('admin.common.required')} autoComplete="off" maxLength={1024} />
          <TextField id="sso-idp-slo-url" label={t('sso.idpSloUrl')} value={form.idpSloUrl} onChange={set('idpSloUrl')} error={errors.idpSloUrl} autoComplete="off" maxLength={1024} />
          <div>
            <label htmlFor="sso-idp-certificate" className="font-medium">
              {t('sso.idpCertificate')}
              <span aria-hidden="true" className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs font-normal text-slate-800">
                {t('admin.common.required')}
              </span>
            </label>
            <textarea
              id="sso-idp-certificate"
              value={form.idpCertificate}
              onChange={(e) => set('idpCertificate')(e.target.value)}
              required
              aria-required
              aria-invalid={certError ? true : undefined}
              aria-describedby={[certError ? 'sso-idp-certificate-error' : null, 'sso-idp-certificate-hint', expiresAt ? 'sso-certificate-expiry' : null].filter(Boolean).join(' ')}
              rows={8}
              spellCheck={false}
              className={`${INPUT} font-mono text-sm`}
            />
            {certError && (
              <p id="sso-idp-certificate-error" className="m-0 mt-1 text-sm text-red-800">
                {certError}
              </p>
            )}
            <p id="sso-idp-certificate-hint" className="m-0 mt-1 text-sm text-slate-700">
              {t('sso.certificateHint')}
            </p>
            {expiresAt && (
              <p id="sso-certificate-expiry" className={`m-0 mt-1 text-sm ${expired ? 'text-red-800' : 'text-slate-800'}`} data-testid="certificate-expiry">
                {t(expired ? 'sso.certificateExpired' : 'sso.certificateExpires', { date: formatDateTime(expiresAt, p.lang) })}
              </p>
            )}
          </div>
          <div>
            <button type="submit" className={BTN_PRIMARY} disabled={busy}>
              {t('sso.save')}
            </button>
          </div>
        </form>
      </section>

      <section aria-labelledby="sso-test-heading" className={CARD}>
        <h2 id="sso-test-heading" className="m-0 mb-1 text-lg font-semibold">
          {t('sso.testHeading')}
        </h2>
        <p id="sso-test-hint" className="m-0 mb-3 text-sm text-slate-700">
          {stored ? t('sso.testHint') : t('sso.testNeedsSettings')}
        </p>
        <button type="button" className={BTN_SECONDARY} disabled={!stored} aria-describedby="sso-test-hint" onClick={() => window.open(p.testUrl, '_blank', 'noopener')}>
          {t('sso.testButton')}
        </button>
      </section>
      <Toast t={t} toast={toast} onClose={close} />
    </div>
  );
}
