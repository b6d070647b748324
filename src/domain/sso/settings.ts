// The SSO settings screen's rules (spec 02 "SSO settings screen", "Tenant SSO"): IdP settings
// with a validated certificate, and the enable switch (only once settings are stored).
import type { Deps } from '../../deps';
import { samlSettings, type Tenant } from '../../db/schema';
import { auditInsert } from '../audit/log';
import { AppError, text, ValidationError } from '../errors';
import { assertSubscribed } from '../tenant-settings/settings';
import { loadSetting } from './flow';
import { spUrls } from './sp';
import { joinCertificates, parseCertificates, storedCertificates, trustEndsAt } from './certificates';
import { metadataRefusal, readIdpMetadata, METADATA_MAX_BYTES } from './metadata';
import { checkUrl, fetchOutbound, OutboundRefused } from '../security/outbound';
import { reserve, type Limit } from '../security/limiter';
import { forgetHosts } from '../tenants/hosts';
import type { TenantScope } from '../tenants/scope';
import type { MetadataPreview, MetadataSourceInput, SamlSettingInput, SamlSettingView } from '../../shared/sso/schemas';

/**
 * Metadata URLs one tenant's admins may have the server fetch per 10 minutes: the server's own
 * requests to addresses an admin names are a resource to ration (decision 0042).
 */
export const metadataFetchLimit = (tenantId: number): Limit => ({ key: `sso-metadata-fetch:${tenantId}`, max: 20, windowMs: 10 * 60_000 });

/** The limits of a metadata URL fetch (decision 0042). */
export const METADATA_FETCH = { maxBytes: METADATA_MAX_BYTES, timeoutMs: 10_000, maxRedirects: 3 };

export interface Actor {
  userId: number;
  ip: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function isSsoSubscribed(tenant: Tenant): boolean {
  return tenant.featureSsoUsersLimit >= 1;
}

/** Whether the tenant's IdP settings are switched on (the tenant's own SSO switch aside). */
export async function idpConfigured(scope: TenantScope): Promise<boolean> {
  const s = await scope.db.select({ on: samlSettings.isIdpConfigured }).from(samlSettings).where(scope.own(samlSettings)).get();
  return Boolean(s?.on);
}

export async function samlSettingView(deps: Deps, scope: TenantScope): Promise<SamlSettingView> {
  assertSubscribed(isSsoSubscribed(scope.tenant));
  const s = await loadSetting(scope);
  const urls = spUrls(deps.config, scope.tenant);
  const certs = s ? storedCertificates(s.idpX509Cert) : [];
  // When SSO stops working: the end of the last certificate (an older one may end first in a rollover).
  const ends = trustEndsAt(certs);
  return {
    is_idp_configured: s?.isIdpConfigured && scope.tenant.isSsoEnabled ? 1 : 0,
    saml_setting: s
      ? {
          idp_entity_id: s.idpEntityId,
          idp_sso_url: s.idpSsoUrl,
          idp_slo_url: s.idpSloUrl,
          idp_x509cert: s.idpX509Cert,
          certificate_expires_at: ends === null ? null : iso(ends),
          certificates: certs.map((c) => ({ fingerprint: c.fingerprint, not_before: iso(c.notBefore), not_after: iso(c.notAfter) })),
          idp_metadata_url: s.idpMetadataUrl,
          metadata_checked_at: s.metadataCheckedAt === null ? null : iso(s.metadataCheckedAt),
          metadata_error: s.metadataError,
        }
      : null,
    sp: { entity_id: urls.entityId, acs_url: urls.acsUrl, metadata_url: urls.metadataUrl, sls_url: urls.slsUrl },
  };
}

/** POST /admin/saml. Changing the IdP keeps the switch as it was (the admin re-tests first). */
export async function saveSamlSetting(deps: Deps, scope: TenantScope, input: SamlSettingInput, actor: Actor) {
  assertSubscribed(isSsoSubscribed(scope.tenant));
  const certs = parseCertificates(input.idpCertificate);
  if (!certs) throw new ValidationError({ idpCertificate: [text('sso.errors.certificate')] });
  if (certs.some((c) => c.notAfter <= deps.clock.now())) throw new ValidationError({ idpCertificate: [text('sso.errors.certificateExpired')] });
  const now = deps.clock.now();
  const metadataUrl = input.idpMetadataUrl || null;
  // A URL the daily job could never read is refused now rather than failing every night.
  if (metadataUrl) {
    try {
      checkUrl(metadataUrl, { allowLoopback: deps.config.DEV_SSO_METADATA_LOOPBACK });
    } catch (e) {
      if (e instanceof OutboundRefused) throw new ValidationError({ idpMetadataUrl: [text(`sso.metadata.errors.${e.problem}`)] });
      throw e;
    }
  }
  const values = {
    idpEntityId: input.idpEntityId,
    idpSsoUrl: input.idpSsoUrl,
    idpSloUrl: input.idpSloUrl || null,
    idpX509Cert: joinCertificates(certs),
    idpMetadataUrl: metadataUrl,
    // Saved now from what the admin reviewed: the daily re-read counts from here.
    metadataCheckedAt: metadataUrl ? now : null,
    metadataError: null,
    updatedAt: now,
  };
  await deps.db.batch([
    scope.insert(samlSettings, { ...values, createdAt: now }).onConflictDoUpdate({ target: samlSettings.tenantId, set: values }),
    scope.updateTenant({ ssoCertificateExpiresAt: trustEndsAt(certs), updatedAt: now }),
    auditInsert(
      deps.db,
      { tenantId: scope.id, actorUserId: actor.userId, action: 'admin.sso.settings-saved', ipAddress: actor.ip, details: { idpEntityId: input.idpEntityId, metadataUrl, certificates: certs.map((c) => c.fingerprint) } },
      now,
    ),
  ]);
  forgetHosts(deps.db);
  return samlSettingView(deps, { ...scope, tenant: { ...scope.tenant, ssoCertificateExpiresAt: trustEndsAt(certs) } });
}

/** PATCH /admin/saml/configure-idp-status: the tenant's SSO switch. */
export async function setIdpStatus(deps: Deps, scope: TenantScope, on: boolean, actor: Actor) {
  assertSubscribed(isSsoSubscribed(scope.tenant));
  const s = await loadSetting(scope);
  if (!s) throw new AppError('sso-settings-missing');
  const now = deps.clock.now();
  await deps.db.batch([
    scope.update(samlSettings, { isIdpConfigured: on, updatedAt: now }),
    scope.updateTenant({ isSsoEnabled: on, updatedAt: now }),
    auditInsert(deps.db, { tenantId: scope.id, actorUserId: actor.userId, action: on ? 'admin.sso.enabled' : 'admin.sso.disabled', ipAddress: actor.ip }, now),
  ]);
  forgetHosts(deps.db);
  return { message: 'success', is_idp_configured: on ? 1 : 0 };
}

/** Reads a metadata URL by the outbound rules; the text, or the refusal shown on the field. */
export async function fetchMetadataXml(deps: Pick<Deps, 'outbound' | 'config'>, url: string): Promise<string> {
  if (!deps.outbound) throw metadataRefusal('metadataUrl', 'unreachable');
  try {
    return await fetchOutbound(deps.outbound, url, { ...METADATA_FETCH, allowLoopback: deps.config.DEV_SSO_METADATA_LOOPBACK });
  } catch (e) {
    if (e instanceof OutboundRefused) throw metadataRefusal('metadataUrl', e.problem);
    throw e;
  }
}

/**
 * POST /admin/saml/metadata: the IdP's values from its metadata URL (fetched here) or XML, for the
 * admin to review; nothing is stored until they save.
 */
export async function previewMetadata(deps: Deps, scope: TenantScope, input: MetadataSourceInput): Promise<MetadataPreview> {
  assertSubscribed(isSsoSubscribed(scope.tenant));
  const field = input.url ? 'metadataUrl' : 'metadataXml';
  if (input.url) await reserve(deps.db, [metadataFetchLimit(scope.id)], deps.clock.now());
  const xml = input.url ? await fetchMetadataXml(deps, input.url) : (input.xml ?? '');
  const read = readIdpMetadata(xml);
  if (!read.ok) throw metadataRefusal(field, read.problem);
  const m = read.metadata;
  return {
    idp_entity_id: m.entityId,
    idp_sso_url: m.ssoUrl,
    idp_slo_url: m.sloUrl,
    idp_certificate: joinCertificates(m.certificates),
    certificates: m.certificates.map((c) => ({ fingerprint: c.fingerprint, not_before: iso(c.notBefore), not_after: iso(c.notAfter) })),
    idp_metadata_url: input.url || null,
  };
}
