// The SSO settings screen's rules (spec 02 "SSO settings screen", "Tenant SSO"): IdP settings
// with a validated certificate, and the enable switch (only once settings are stored).
import type { Deps } from '../../deps';
import { samlSettings, type Tenant } from '../../db/schema';
import { auditInsert } from '../audit/log';
import { AppError, text, ValidationError } from '../errors';
import { assertSubscribed } from '../tenant-settings/settings';
import { loadSetting } from './flow';
import { parseCertificate, spUrls } from './sp';
import { forgetHosts } from '../tenants/hosts';
import type { TenantScope } from '../tenants/scope';
import { type SamlSettingInput } from '../../shared/sso/schemas';

export interface Actor {
  userId: number;
  ip: string | null;
}

export interface SamlSettingView {
  is_idp_configured: 0 | 1;
  saml_setting: { idp_entity_id: string; idp_sso_url: string; idp_slo_url: string | null; idp_x509cert: string; certificate_expires_at: string | null } | null;
  sp: { entity_id: string; acs_url: string; metadata_url: string; sls_url: string };
}

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
  const cert = s ? parseCertificate(s.idpX509Cert) : null;
  return {
    is_idp_configured: s?.isIdpConfigured && scope.tenant.isSsoEnabled ? 1 : 0,
    saml_setting: s
      ? {
          idp_entity_id: s.idpEntityId,
          idp_sso_url: s.idpSsoUrl,
          idp_slo_url: s.idpSloUrl,
          idp_x509cert: s.idpX509Cert,
          certificate_expires_at: cert ? new Date(cert.notAfter).toISOString() : null,
        }
      : null,
    sp: { entity_id: urls.entityId, acs_url: urls.acsUrl, metadata_url: urls.metadataUrl, sls_url: urls.slsUrl },
  };
}

/** POST /admin/saml. Changing the IdP keeps the switch as it was (the admin re-tests first). */
export async function saveSamlSetting(deps: Deps, scope: TenantScope, input: SamlSettingInput, actor: Actor) {
  assertSubscribed(isSsoSubscribed(scope.tenant));
  const cert = parseCertificate(input.idpCertificate);
  if (!cert) throw new ValidationError({ idpCertificate: [text('sso.errors.certificate')] });
  if (cert.notAfter <= deps.clock.now()) throw new ValidationError({ idpCertificate: [text('sso.errors.certificateExpired')] });
  const now = deps.clock.now();
  const values = { idpEntityId: input.idpEntityId, idpSsoUrl: input.idpSsoUrl, idpSloUrl: input.idpSloUrl || null, idpX509Cert: cert.pem, updatedAt: now };
  await deps.db.batch([
    scope.insert(samlSettings, { ...values, createdAt: now }).onConflictDoUpdate({ target: samlSettings.tenantId, set: values }),
    auditInsert(deps.db, { tenantId: scope.id, actorUserId: actor.userId, action: 'admin.sso.settings-saved', ipAddress: actor.ip, details: { idpEntityId: input.idpEntityId } }, now),
  ]);
  return samlSettingView(deps, scope);
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
