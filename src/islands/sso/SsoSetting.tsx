// SSO settings (spec 02 "SSO settings screen", "Tenant SSO"): the service provider's values to
// register at the IdP, the IdP settings form (entity id, sign-on URL, optional sign-out URL,
// certificate with its expiry), a connection test in a new window, and the enable switch: disabled
// until settings are stored on the server, reverting when the call fails. Decision 0042: the form
// is filled from the IdP's metadata (URL read by the server, or XML pasted or uploaded) for the
// admin to review and save; several certificates at once (rollover), each with its end date; a
// preset shows its IdP's guide beside the form (loaded when picked, so the island stays light).
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { api } from '../../shared/api';
import { formatDateTime } from '../../shared/dates';
import { getT, type Lang } from '../../shared/i18n';
import { BTN_PRIMARY, BTN_SECONDARY, CARD, INPUT, Switch, TextField, Toast, useToast } from '../kit/admin-parts';
import CopyButton from '../kit/CopyButton';
import { metadataSourceSchema, samlSettingSchema, type CertificateView, type MetadataPreview, type SamlSettingView } from '../../shared/sso/schemas';
import { IDP_PRESETS, type IdpGuide } from '../../shared/sso/presets';


export interface SsoSettingProps {
  lang: Lang;
  basePath: string;
  sp: SamlSettingView['sp'];
  setting: SamlSettingView['saml_setting'];
  enabled: boolean;
  /** saml2/all/login on the tenant's initial host with RelayState saml-test-passed. */
  testUrl: string;
  certificateExpired: boolean;
}

type Field = 'idpEntityId' | 'idpSsoUrl' | 'idpSloUrl' | 'idpCertificate';
type SourceField = 'metadataUrl' | 'metadataXml';

const DAY_MS = 24 * 60 * 60_000;

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
  const [certs, setCerts] = useState<CertificateView[]>(p.setting?.certificates ?? []);
  const [metadataUrl, setMetadataUrl] = useState(p.setting?.idp_metadata_url ?? '');
  /** The metadata URL the form's values came from (saved with them, re-read daily). */
  const [sourceUrl, setSourceUrl] = useState<string | null>(p.setting?.idp_metadata_url ?? null);
  const [metadataXml, setMetadataXml] = useState('');
  const [sourceErrors, setSourceErrors] = useState<Partial<Record<SourceField, string>>>({});
  const [filled, setFilled] = useState(false);
  const [preset, setPreset] = useState('');
  const [guide, setGuide] = useState<IdpGuide | null>(null);
  const sourceRef = useRef<HTMLDivElement>(null);

  const readMetadata = async (field: SourceField) => {
    if (busy) return;
    const body = field === 'metadataUrl' ? { url: metadataUrl } : { xml: metadataXml };
    const parsed = metadataSourceSchema.safeParse(body);
    if (!parsed.success) {
      setSourceErrors({ [field]: t(parsed.error.issues[0]!.message) });
      setTimeout(() => sourceRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      return;
    }
    setBusy(true);
    setFilled(false);
    const r = await api<{ errors?: Record<string, string[]>; metadata?: MetadataPreview }>(p.basePath, 'POST', 'admin/saml/metadata', parsed.data);
    setBusy(false);
    if (r.ok && r.data.metadata) {
      const m = r.data.metadata;
      setForm({ idpEntityId: m.idp_entity_id, idpSsoUrl: m.idp_sso_url, idpSloUrl: m.idp_slo_url ?? '', idpCertificate: m.idp_certificate });
      setErrors({});
      setSourceErrors({});
      setCerts(m.certificates);
      setSourceUrl(m.idp_metadata_url);
      setFilled(true);
      return;
    }
    if (r.status === 429) {
      setSourceErrors({ [field]: t('sso.metadata.errors.too-many') });
      return;
    }
    if (r.status === 422 && r.data.errors) {
      const v = r.data.errors.metadataUrl ?? r.data.errors.metadataXml ?? r.data.errors.url ?? r.data.errors.xml;
      setSourceErrors({ [field]: v?.[0] ?? t('errors.reload') });
      setTimeout(() => sourceRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      return;
    }
    show('error', t('errors.reload'));
  };

  const upload = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    // Read in the browser and sent as the XML: the same path as a paste.
    setMetadataXml(await file.text());
    setSourceErrors({});
  };

  const pickPreset = async (value: string) => {
    setPreset(value);
    setGuide(null);
    if (!value) return;
    const r = await api<{ guide: IdpGuide }>(p.basePath, 'GET', `admin/saml/guide/${value}`);
    if (r.ok) setGuide(r.data.guide);
    else show('error', t('errors.reload'));
  };

  const set = (k: Field) => (v: string) => {
    setForm((f) => ({ ...f, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    // A hand edit of the certificates after a metadata read keeps the URL: the daily re-read
    // then replaces them with the IdP's set again, as the admin asked by giving the URL.
    const parsed = samlSettingSchema.safeParse({ ...form, idpMetadataUrl: sourceUrl ?? '' });
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
      setCerts(r.data.saml_setting?.certificates ?? []);
      setFilled(false);
      setExpired(at !== null && Date.parse(at) <= Date.now());
      show('success', t('sso.saved'));
      return;
    }
    if (r.status === 422 && r.data.errors) {
      const next: Partial<Record<Field, string>> = {};
      for (const [k, v] of Object.entries(r.data.errors)) next[k as Field] = v[0];
      setErrors(next);
      // The metadata URL the values came from is checked on save too: its error shows on that field.
      if (r.data.errors.idpMetadataUrl) {
        setSourceErrors({ metadataUrl: r.data.errors.idpMetadataUrl[0] });
        setTimeout(() => sourceRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
        return;
      }
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
    <div className={`flex flex-col gap-6 ${guide ? 'max-w-6xl' : 'max-w-3xl'}`}>
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
        <p className="m-0 mt-3">
          <a className="text-blue-800 underline" href={`${p.sp.metadata_url}?download`} download data-testid="sp-metadata-download">
            {t('sso.spMetadataDownload')}
          </a>
        </p>
      </section>

      <section aria-labelledby="sso-preset-heading" className={CARD}>
        <h2 id="sso-preset-heading" className="m-0 mb-1 text-lg font-semibold">
          {t('sso.presetHeading')}
        </h2>
        <label htmlFor="sso-preset" className="font-medium">
          {t('sso.presetLabel')}
        </label>
        <select id="sso-preset" value={preset} onChange={(e) => void pickPreset(e.target.value)} className={INPUT}>
          <option value="">{t('sso.presetNone')}</option>
          {IDP_PRESETS.map((id) => (
            <option key={id} value={id}>
              {t(`sso.presets.${id}`)}
            </option>
          ))}
        </select>
      </section>

      {/* The guide stands beside the metadata and IdP forms on wide screens, above them otherwise. */}
      <div className="flex flex-col gap-6 xl:flex-row xl:items-start">
        <div className="flex min-w-0 flex-1 flex-col gap-6">
          <section aria-labelledby="sso-metadata-heading" className={CARD}>
            <h2 id="sso-metadata-heading" className="m-0 mb-1 text-lg font-semibold">
              {t('sso.metadataHeading')}
            </h2>
            <p className="m-0 mb-3 text-sm text-slate-700">{t('sso.metadataHint')}</p>
            <div ref={sourceRef} className="flex flex-col gap-4">
              <div className="flex flex-col gap-2">
                <TextField id="sso-metadata-url" label={t('sso.metadataUrlLabel')} value={metadataUrl} onChange={(v) => (setMetadataUrl(v), setSourceErrors({}))} error={sourceErrors.metadataUrl} autoComplete="off" maxLength={1024} />
                <div>
                  <button type="button" className={BTN_SECONDARY} disabled={busy} onClick={() => void readMetadata('metadataUrl')}>
                    {t('sso.metadataFetch')}
                  </button>
                </div>
              </div>
              <div className="flex flex-col gap-2">
                <label htmlFor="sso-metadata-xml" className="font-medium">
                  {t('sso.metadataXmlLabel')}
                </label>
                <textarea
                  id="sso-metadata-xml"
                  value={metadataXml}
                  onChange={(e) => (setMetadataXml(e.target.value), setSourceErrors({}))}
                  aria-invalid={sourceErrors.metadataXml ? true : undefined}
                  aria-describedby={sourceErrors.metadataXml ? 'sso-metadata-xml-error' : undefined}
                  rows={4}
                  spellCheck={false}
                  className={`${INPUT} font-mono text-sm`}
                />
                {sourceErrors.metadataXml && (
                  <p id="sso-metadata-xml-error" className="m-0 text-sm text-red-800">
                    {sourceErrors.metadataXml}
                  </p>
                )}
                <div>
                  <label htmlFor="sso-metadata-file" className="text-sm font-medium">
                    {t('sso.metadataFile')}
                  </label>
                  <input id="sso-metadata-file" type="file" accept=".xml,application/xml,text/xml,application/samlmetadata+xml" onChange={(e) => void upload(e)} className="mt-1 block w-full max-w-full text-sm" />
                </div>
                <div>
                  <button type="button" className={BTN_SECONDARY} disabled={busy} onClick={() => void readMetadata('metadataXml')}>
                    {t('sso.metadataRead')}
                  </button>
                </div>
              </div>
            </div>
            <p role="status" className="m-0 mt-3 text-sm text-green-900" data-testid="metadata-filled">
              {filled ? t('sso.metadataFilled') : ''}
            </p>
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
                {certs.length > 0 && (
                  <ul className="m-0 mt-2 flex list-none flex-col gap-1 p-0 text-sm" aria-label={t('sso.certificatesLabel')} data-testid="certificates">
                    {certs.map((c) => {
                      const end = Date.parse(c.not_after);
                      const left = end - Date.now();
                      const cls = left <= 0 ? 'text-red-800' : left <= 30 * DAY_MS ? 'text-amber-900' : 'text-slate-800';
                      return (
                        <li key={c.fingerprint} className={cls}>
                          <span className="font-mono">{c.fingerprint.slice(0, 16).replace(/(..)/g, '$1:').slice(0, -1)}…</span>{' '}
                          {t(left <= 0 ? 'sso.certificateExpired' : 'sso.certificateExpires', { date: formatDateTime(c.not_after, p.lang) })}
                        </li>
                      );
                    })}
                  </ul>
                )}
                {sourceUrl && (
                  <p className="m-0 mt-1 text-sm text-slate-700" data-testid="metadata-source">
                    {t('sso.metadataSource', { url: sourceUrl })}
                    {p.setting?.metadata_error && sourceUrl === p.setting.idp_metadata_url ? ` ${t('sso.metadataLastError', { error: t(`sso.metadata.errors.${p.setting.metadata_error}`) })}` : ''}
                  </p>
                )}
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
        </div>
        {guide && (
          <aside aria-labelledby="sso-guide-heading" className="rounded-lg border border-slate-300 bg-slate-50 p-4 xl:sticky xl:top-4 xl:w-96 xl:shrink-0" data-testid="sso-guide">
            <h3 id="sso-guide-heading" className="m-0 mb-2 text-base font-semibold">
              {t('sso.guideHeading', { idp: guide.name })}
            </h3>
            <ol className="m-0 flex flex-col gap-1 pl-5">
              {guide.steps.map((step, i) => (
                <li key={i}>{step}</li>
              ))}
            </ol>
            <dl className="m-0 mt-3 flex flex-col gap-2 text-sm">
              <div>
                <dt className="font-medium">{t('sso.guideNameId')}</dt>
                <dd className="m-0">{guide.nameId}</dd>
              </div>
              <div>
                <dt className="font-medium">{t('sso.guideAttributes')}</dt>
                <dd className="m-0">{guide.attributes}</dd>
              </div>
              <div>
                <dt className="font-medium">{t('sso.guideTest')}</dt>
                <dd className="m-0">{guide.test}</dd>
              </div>
            </dl>
          </aside>
        )}
      </div>

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
