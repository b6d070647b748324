// The scheduled watch over every tenant's IdP certificates (decision 0042), one job of the list in
// domain/operations/schedule.ts: re-reads a metadata URL once a day and applies a changed
// certificate set (audited, mailed to the tenant's admins), and warns the admins 30, 7 and 1 days
// before a certificate's end, once per threshold: the insert that wins the warning row's primary
// key sends the mail, so two runs at once cannot both send. Also the operators' list of tenants
// whose certificates end within N days.
import { and, eq, isNull } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { samlCertificateWarnings, samlSettings, tenants, tenantUsers, users, type SamlSetting, type Tenant } from '../../db/schema';
import { formatDateTime } from '../../shared/dates';
import { auditInsert } from '../audit/log';
import { sendMail } from '../mail/messages';
import { crossedThreshold, daysLeft, joinCertificates, sameCertificates, storedCertificates, trustEndsAt, type TrustedCertificate } from './certificates';
import { forgetHosts } from '../tenants/hosts';
import { readIdpMetadata } from './metadata';
import { fetchOutbound, OutboundRefused } from '../security/outbound';
import { METADATA_FETCH } from './settings';
import { tenantScope } from '../tenants/scope';

/** How often a metadata URL is re-read (a little under a day, so a daily schedule never skips one). */
export const METADATA_REFRESH_MS = 23 * 60 * 60_000;

export interface WatchReport {
  metadataRead: number;
  certificatesChanged: number;
  metadataFailed: number;
  warningsSent: number;
}

type Row = { setting: SamlSetting; tenant: Tenant };

async function allSettings(deps: Pick<Deps, 'db'>): Promise<Row[]> {
  // A system job over every tenant: the join names each row's own tenant.
  return deps.db.select({ setting: samlSettings, tenant: tenants }).from(samlSettings).innerJoin(tenants, eq(tenants.id, samlSettings.tenantId)).all();
}

/** The tenant's active administrators, with the language each reads mail in. */
async function admins(deps: Pick<Deps, 'db'>, tenant: Tenant) {
  const scope = tenantScope(deps.db, tenant);
  return scope.db
    .select({ email: users.email, language: users.language })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(scope.own(tenantUsers, eq(tenantUsers.isAdmin, true), isNull(tenantUsers.deactivatedAt), isNull(tenantUsers.operationStatus), eq(tenantUsers.invitationPending, false)))
    .all();
}

function settingsUrl(deps: Pick<Deps, 'config'>, tenant: Tenant): string {
  const u = new URL(deps.config.PUBLIC_URL);
  return `${u.protocol}//${tenant.initialSubdomain}.${u.host}${deps.config.BASE_PATH}/admin/sso-setting`;
}

const colons = (hex: string) => hex.match(/../g)!.join(':').toUpperCase();

async function mailAdmins(deps: Deps, tenant: Tenant, kind: 'ssoCertificatesChanged' | 'ssoCertificateExpiring', vars: (lang: 'ja' | 'en') => Record<string, string | number>) {
  for (const a of await admins(deps, tenant)) {
    await sendMail(deps, { email: a.email, language: a.language }, kind, { tenant: tenant.name, settingsUrl: settingsUrl(deps, tenant), ...vars(a.language) }, tenant.id);
  }
}

async function refreshMetadata(deps: Deps, row: Row, report: WatchReport): Promise<void> {
  const { setting, tenant } = row;
  const url = setting.idpMetadataUrl!;
  const now = deps.clock.now();
  const scope = tenantScope(deps.db, tenant);
  let problem: string | null = null;
  let next: TrustedCertificate[] | null = null;
  try {
    if (!deps.outbound) throw new OutboundRefused('unreachable');
    const xml = await fetchOutbound(deps.outbound, url, { ...METADATA_FETCH, allowLoopback: deps.config.DEV_SSO_METADATA_LOOPBACK });
    const read = readIdpMetadata(xml);
    if (!read.ok) problem = read.problem;
    // An expired certificate the IdP still lists is not worth trusting.
    else next = read.metadata.certificates.filter((c) => c.notAfter > now);
    if (next && next.length === 0) {
      problem = 'no-certificate';
      next = null;
    }
  } catch (e) {
    if (!(e instanceof OutboundRefused)) throw e;
    problem = e.problem;
  }
  report.metadataRead++;
  const current = storedCertificates(setting.idpX509Cert);
  if (!next || sameCertificates(current, next)) {
    if (problem) report.metadataFailed++;
    await scope.update(samlSettings, { metadataCheckedAt: now, metadataError: problem }, eq(samlSettings.idpMetadataUrl, url));
    return;
  }
  // Compare-and-set on the stored text: an admin's save in the meantime wins over this run.
  const stored = joinCertificates(next);
  const changed = await scope
    .update(samlSettings, { idpX509Cert: stored, metadataCheckedAt: now, metadataError: null, updatedAt: now }, eq(samlSettings.idpX509Cert, setting.idpX509Cert), eq(samlSettings.idpMetadataUrl, url))
    .returning({ tenantId: samlSettings.tenantId });
  if (changed.length === 0) return;
  await scope.updateTenant({ ssoCertificateExpiresAt: trustEndsAt(next), updatedAt: now });
  forgetHosts(deps.db);
  // Written after the change it records (only the run whose compare-and-set won writes one).
  await auditInsert(
    deps.db,
    { tenantId: tenant.id, actorUserId: null, action: 'sso.certificates-updated-from-metadata', ipAddress: null, details: { metadataUrl: url, before: current.map((c) => c.fingerprint), after: next.map((c) => c.fingerprint) } },
    now,
  );
  report.certificatesChanged++;
  const list = (lang: 'ja' | 'en') => next!.map((c) => `- SHA-256 ${colons(c.fingerprint)} (${formatDateTime(c.notAfter, lang)})`).join('\n');
  await mailAdmins(deps, tenant, 'ssoCertificatesChanged', (lang) => ({ url, certificates: list(lang) }));
}

async function warnExpiring(deps: Deps, row: Row, report: WatchReport): Promise<void> {
  const now = deps.clock.now();
  const scope = tenantScope(deps.db, row.tenant);
  const certs = storedCertificates(row.setting.idpX509Cert);
  const ends = trustEndsAt(certs);
  // Settings stored before the column existed (or written elsewhere) get it here.
  if (row.tenant.ssoCertificateExpiresAt !== ends) {
    await scope.updateTenant({ ssoCertificateExpiresAt: ends });
    forgetHosts(deps.db);
  }
  // Only the certificate that ends last matters: while a successor is trusted, the older one's
  // end breaks nothing (a rollover in progress), so it is not worth a warning.
  const last = certs.find((c) => c.notAfter === ends);
  for (const c of last ? [last] : []) {
    const threshold = crossedThreshold(c.notAfter, now);
    if (threshold === null) continue;
    // The row that wins the key decides who sends: a concurrent run gets nothing back.
    const won = await scope
      .insert(samlCertificateWarnings, { fingerprint: c.fingerprint, thresholdDays: threshold, notAfter: c.notAfter, createdAt: now })
      .onConflictDoNothing()
      .returning({ t: samlCertificateWarnings.thresholdDays });
    if (won.length === 0) continue;
    try {
      await mailAdmins(deps, row.tenant, 'ssoCertificateExpiring', (lang) => ({ fingerprint: `SHA-256 ${colons(c.fingerprint)}`, date: formatDateTime(c.notAfter, lang), days: Math.max(1, daysLeft(c.notAfter, now)) }));
      report.warningsSent++;
    } catch (e) {
      // Not sent: the next run tries again.
      await scope.delete(samlCertificateWarnings, and(eq(samlCertificateWarnings.fingerprint, c.fingerprint), eq(samlCertificateWarnings.thresholdDays, threshold)));
      throw e;
    }
  }
}

/** The scheduled job. One tenant's failure is logged and does not stop the others. */
export async function watchSsoCertificates(deps: Deps): Promise<WatchReport> {
  const report: WatchReport = { metadataRead: 0, certificatesChanged: 0, metadataFailed: 0, warningsSent: 0 };
  const now = deps.clock.now();
  for (const row of await allSettings(deps)) {
    try {
      if (row.setting.idpMetadataUrl && (row.setting.metadataCheckedAt === null || now - row.setting.metadataCheckedAt >= METADATA_REFRESH_MS)) await refreshMetadata(deps, row, report);
      const scope = tenantScope(deps.db, row.tenant);
      const fresh = (await scope.db.select().from(samlSettings).where(scope.own(samlSettings)).get()) ?? row.setting;
      await warnExpiring(deps, { ...row, setting: fresh }, report);
    } catch (e) {
      console.error(JSON.stringify({ level: 'error', event: 'sso_certificate_watch_failed', tenantId: row.tenant.id, error: String(e) }));
    }
  }
  return report;
}

export interface ExpiringTenant {
  tenantId: number;
  name: string;
  initialSubdomain: string;
  ssoEnabled: boolean;
  metadataUrl: string | null;
  certificates: { fingerprint: string; notAfter: string; daysLeft: number; expired: boolean }[];
}

/** Tenants with a trusted certificate ending within `days` (or already ended), soonest first. */
export async function tenantsWithExpiringCertificates(deps: Pick<Deps, 'db' | 'clock'>, days: number): Promise<ExpiringTenant[]> {
  const now = deps.clock.now();
  const limit = now + days * 24 * 60 * 60_000;
  const out: (ExpiringTenant & { soonest: number })[] = [];
  for (const { setting, tenant } of await allSettings(deps)) {
    const certs = storedCertificates(setting.idpX509Cert).filter((c) => c.notAfter <= limit);
    if (certs.length === 0) continue;
    out.push({
      tenantId: tenant.id,
      name: tenant.name,
      initialSubdomain: tenant.initialSubdomain,
      ssoEnabled: tenant.isSsoEnabled && setting.isIdpConfigured,
      metadataUrl: setting.idpMetadataUrl,
      certificates: certs.map((c) => ({ fingerprint: c.fingerprint, notAfter: new Date(c.notAfter).toISOString(), daysLeft: daysLeft(c.notAfter, now), expired: c.notAfter <= now })),
      soonest: Math.min(...certs.map((c) => c.notAfter)),
    });
  }
  return out.sort((a, b) => a.soonest - b.soonest).map(({ soonest: _s, ...rest }) => rest);
}
