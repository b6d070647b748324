// The tenant's IP allowlist (spec 02 "IP restriction"). Addresses are IPv4 with a prefix; only
// public (unicast) networks may be listed. The admin cannot lock themselves out: enabling needs
// their current address listed, and the entry covering it cannot be deleted while enabled.
import { and, asc, eq } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import type { Deps } from '../../deps';
import { tenants, whitelistedIps, type Tenant } from '../../db/schema';
import { AppError } from '../errors';
import { audit } from '../audit/log';
import type { Actor } from '../tenants/settings';
import { assertSubscribed } from '../tenants/settings';
import { isAllowed } from './ip-allowlist';
import { forgetHosts } from '../tenants/hosts';

export async function listAllowedIps(deps: Deps, tenant: Tenant) {
  assertSubscribed(tenant.isFeatureIpRestrictionSubscribed);
  const rows = await deps.db.select().from(whitelistedIps).where(eq(whitelistedIps.tenantId, tenant.id)).orderBy(asc(whitelistedIps.id));
  return rows.map((r) => ({ id: r.id, ip_address: r.ipAddress, prefix_length: r.prefixLength, description: r.description }));
}

export async function addAllowedIp(deps: Deps, tenant: Tenant, p: { ipAddress: string; prefixLength: number; description?: string | null }, actor: Actor) {
  assertSubscribed(tenant.isFeatureIpRestrictionSubscribed);
  if (!ipaddr.IPv4.isValidFourPartDecimal(p.ipAddress)) throw new AppError('The given data was invalid.', 422);
  const addr = ipaddr.IPv4.parse(p.ipAddress);
  if (addr.range() !== 'unicast') throw new AppError('The ip address must be a public IP address.', 422);
  const now = deps.clock.now();
  const inserted = await deps.db
    .insert(whitelistedIps)
    .values({ tenantId: tenant.id, ipAddress: addr.toString(), prefixLength: p.prefixLength, description: p.description?.trim() || null, createdAt: now })
    .onConflictDoNothing()
    .returning()
    .get();
  if (!inserted) throw new AppError('duplicate-ip', 422);
  await audit(deps.db, { tenantId: tenant.id, actorUserId: actor.userId, action: 'ip_restriction.added', targetType: 'whitelisted_ip', targetId: inserted.id, ipAddress: actor.ip, details: { ip: `${inserted.ipAddress}/${inserted.prefixLength}` } }, now);
  return { id: inserted.id, ip_address: inserted.ipAddress, prefix_length: inserted.prefixLength, description: inserted.description };
}

export async function deleteAllowedIp(deps: Deps, tenant: Tenant, id: number, actor: Actor): Promise<void> {
  assertSubscribed(tenant.isFeatureIpRestrictionSubscribed);
  const rows = await deps.db.select().from(whitelistedIps).where(eq(whitelistedIps.tenantId, tenant.id));
  const entry = rows.find((r) => r.id === id);
  // Another tenant's id is a 404 like a missing one.
  if (!entry) throw new AppError('not-found', 404);
  if (tenant.isIpRestrictionEnabled && isAllowed(actor.ip, [entry]) && !isAllowed(actor.ip, rows.filter((r) => r.id !== id))) {
    throw new AppError('cannot-delete', 422);
  }
  const now = deps.clock.now();
  await deps.db.delete(whitelistedIps).where(and(eq(whitelistedIps.id, id), eq(whitelistedIps.tenantId, tenant.id)));
  await audit(deps.db, { tenantId: tenant.id, actorUserId: actor.userId, action: 'ip_restriction.deleted', targetType: 'whitelisted_ip', targetId: id, ipAddress: actor.ip, details: { ip: `${entry.ipAddress}/${entry.prefixLength}` } }, now);
}

export async function setIpRestriction(deps: Deps, tenant: Tenant, enabled: boolean, actor: Actor): Promise<void> {
  assertSubscribed(tenant.isFeatureIpRestrictionSubscribed);
  if (enabled) {
    const rows = await deps.db.select().from(whitelistedIps).where(eq(whitelistedIps.tenantId, tenant.id));
    if (!isAllowed(actor.ip, rows)) throw new AppError('your-current-ip-address-is-not-whitelisted', 422, { ipAddress: actor.ip });
  }
  const now = deps.clock.now();
  await deps.db.update(tenants).set({ isIpRestrictionEnabled: enabled, updatedAt: now }).where(eq(tenants.id, tenant.id));
  forgetHosts(deps.db);
  await audit(deps.db, { tenantId: tenant.id, actorUserId: actor.userId, action: enabled ? 'ip_restriction.enabled' : 'ip_restriction.disabled', ipAddress: actor.ip }, now);
}
