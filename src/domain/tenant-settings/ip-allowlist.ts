// The tenant's IP allowlist (spec 02 "IP restriction"). Addresses are IPv4 with a prefix, or IPv6
// with a /32-/128 prefix (decision 0045); only public (unicast) networks may be listed. The admin cannot lock themselves out: enabling needs
// their current address listed, and the entry covering it cannot be deleted while enabled.
import { and, asc, eq, sql } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import type { Deps } from '../../deps';
import { tenants, whitelistedIps } from '../../db/schema';
import { AppError } from '../errors';
import { audit } from '../audit/log';
import type { Actor } from './settings';
import { assertSubscribed } from './settings';
import { isAllowed } from '../security/ip-match';
import { defaultPrefix } from '../../shared/tenant-settings/schemas';
import { parseIpEntry } from '../../shared/tenant-settings/ip-entry';
import { forgetHosts } from '../tenants/hosts';
import { scopedRead, type TenantScope } from '../tenants/scope';

// Built once (scopedRead): drizzle building the select was 8% of the screen's CPU.
const allowedRows = scopedRead((s) => s.db.select().from(whitelistedIps).where(s.own(whitelistedIps)).orderBy(asc(whitelistedIps.id)));

export async function listAllowedIps(scope: TenantScope) {
  assertSubscribed(scope.tenant.isFeatureIpRestrictionSubscribed);
  const rows: (typeof whitelistedIps.$inferSelect)[] = await allowedRows(scope, {});
  return rows.map((r) => ({ id: r.id, ip_address: r.ipAddress, prefix_length: r.prefixLength, description: r.description }));
}

export async function addAllowedIp(deps: Deps, scope: TenantScope, p: { ipAddress: string; prefixLength?: number; description?: string | null }, actor: Actor) {
  assertSubscribed(scope.tenant.isFeatureIpRestrictionSubscribed);
  const entry = allowedEntry(p.ipAddress, p.prefixLength ?? defaultPrefix(p.ipAddress));
  const now = deps.clock.now();
  const inserted = await deps.db
    .insert(whitelistedIps)
    .values({ tenantId: scope.id, ipAddress: entry.ipAddress, prefixLength: entry.prefixLength, description: p.description?.trim() || null, createdAt: now })
    .onConflictDoNothing()
    .returning()
    .get();
  if (!inserted) throw new AppError('duplicate-ip');
  await audit(deps.db, { tenantId: scope.id, actorUserId: actor.userId, action: 'ip_restriction.added', targetType: 'whitelisted_ip', targetId: inserted.id, ipAddress: actor.ip, details: { ip: `${inserted.ipAddress}/${inserted.prefixLength}` } }, now);
  return { id: inserted.id, ip_address: inserted.ipAddress, prefix_length: inserted.prefixLength, description: inserted.description };
}

/**
 * The entry as stored, or the spec's refusals: IPv4 exactly as before (four dotted decimals, only
 * unicast networks), IPv6 by the shared parser (decision 0045), whose non-public ranges (::1 too,
 * as 127.x is refused here) get the same "must be a public IP address" answer.
 */
function allowedEntry(ipAddress: string, prefixLength: number): { ipAddress: string; prefixLength: number } {
  if (!ipAddress.includes(':')) {
    if (!ipaddr.IPv4.isValidFourPartDecimal(ipAddress) || prefixLength < 1 || prefixLength > 32) throw new AppError('The given data was invalid.');
    const addr = ipaddr.IPv4.parse(ipAddress);
    if (addr.range() !== 'unicast') throw new AppError('The ip address must be a public IP address.');
    return { ipAddress: addr.toString(), prefixLength };
  }
  const parsed = parseIpEntry(`${ipAddress}/${prefixLength}`);
  if (parsed === 'local' || parsed === 'not-public') throw new AppError('The ip address must be a public IP address.');
  if (typeof parsed !== 'object') throw new AppError('The given data was invalid.');
  return parsed;
}

export async function deleteAllowedIp(deps: Deps, scope: TenantScope, id: number, actor: Actor): Promise<void> {
  assertSubscribed(scope.tenant.isFeatureIpRestrictionSubscribed);
  const rows = await deps.db.select().from(whitelistedIps).where(scope.own(whitelistedIps));
  const entry = rows.find((r) => r.id === id);
  // Another tenant's id is a 404 like a missing one.
  if (!entry) throw new AppError('not-found');
  // The entry that lets the admin in may go only while the restriction is off or another entry
  // covers them too: decided by the delete itself, from the tenant's switch and entries as they
  // are when it runs (a parallel "enable" or delete cannot slip between a check and the write).
  const others = rows.filter((r) => r.id !== id && isAllowed(actor.ip, [r])).map((r) => r.id);
  const guarded = isAllowed(actor.ip, [entry])
    ? // Parenthesised: drizzle's and() does not wrap its parts, and a bare OR here would delete
      // every entry of every tenant once another entry covers the admin.
      sql`((SELECT is_ip_restriction_enabled FROM tenants WHERE id = ${scope.id}) = 0
        OR EXISTS (SELECT 1 FROM whitelisted_ips o WHERE o.tenant_id = ${scope.id} AND o.id IN (SELECT value FROM json_each(${JSON.stringify(others)}))))`
    : undefined;
  const now = deps.clock.now();
  const gone = await deps.db
    .delete(whitelistedIps)
    .where(and(eq(whitelistedIps.id, id), scope.own(whitelistedIps), guarded))
    .returning({ id: whitelistedIps.id });
  if (gone.length === 0) throw guarded ? new AppError('cannot-delete') : new AppError('not-found');
  await audit(deps.db, { tenantId: scope.id, actorUserId: actor.userId, action: 'ip_restriction.deleted', targetType: 'whitelisted_ip', targetId: id, ipAddress: actor.ip, details: { ip: `${entry.ipAddress}/${entry.prefixLength}` } }, now);
}

export async function setIpRestriction(deps: Deps, scope: TenantScope, enabled: boolean, actor: Actor): Promise<void> {
  assertSubscribed(scope.tenant.isFeatureIpRestrictionSubscribed);
  const now = deps.clock.now();
  if (enabled) {
    const rows = await deps.db.select().from(whitelistedIps).where(scope.own(whitelistedIps));
    const covering = rows.filter((r) => isAllowed(actor.ip, [r])).map((r) => r.id);
    // Switched on only while an entry covering the admin's address still exists when the update
    // runs: an entry deleted in parallel cannot leave the admin locked out.
    const on = covering.length
      ? await deps.db
          .update(tenants)
          .set({ isIpRestrictionEnabled: true, updatedAt: now })
          .where(and(eq(tenants.id, scope.id), sql`EXISTS (SELECT 1 FROM whitelisted_ips w WHERE w.tenant_id = ${scope.id} AND w.id IN (SELECT value FROM json_each(${JSON.stringify(covering)})))`))
          .returning({ id: tenants.id })
      : [];
    if (on.length === 0) throw new AppError('your-current-ip-address-is-not-whitelisted', { ipAddress: actor.ip });
  } else {
    await scope.updateTenant({ isIpRestrictionEnabled: false, updatedAt: now });
  }
  forgetHosts(deps.db);
  await audit(deps.db, { tenantId: scope.id, actorUserId: actor.userId, action: enabled ? 'ip_restriction.enabled' : 'ip_restriction.disabled', ipAddress: actor.ip }, now);
}
