// Host -> tenant. "<label>.<PORTAL_DOMAIN>" is the tenant whose custom or initial subdomain is
// <label>; the bare domain is the main domain; anything else is unknown (404, never a fallback).
import { eq } from 'drizzle-orm';
import { rootOf, type Db } from '../../db/client';
import { tenantHosts, tenants, type Tenant } from '../../db/schema';

export type HostResolution =
  | { kind: 'main' }
  | { kind: 'tenant'; tenant: Tenant }
  | { kind: 'unknown' };

export function hostLabel(hostname: string, portalDomain: string): string | null | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const domain = portalDomain.toLowerCase();
  if (host === domain) return null;
  if (!host.endsWith('.' + domain)) return undefined;
  const label = host.slice(0, -(domain.length + 1));
  return /^[a-z0-9][a-z0-9_-]{0,61}[a-z0-9]$|^[a-z0-9]$/.test(label) ? label : undefined;
}

// Host -> tenant is asked on every request and changes rarely: each process (or Workers isolate)
// keeps what it read for a short while, per database handle. Only signed-out reads use it: a
// state-changing request reads afresh (`fresh`), and a signed-in request reads its tenant in the
// same statement as its session (domain/auth/request-auth.ts), so policy is never stale there.
// Kept per database (a request's D1 session counts as its database: rootOf).
// A change in this process forgets everything at once (forgetHosts); other processes see it
// within the cache's lifetime (HOST_CACHE_SECONDS).
const hostCaches = new WeakMap<object, Map<string, { until: number; tenant: Tenant | null }>>();

/** Drops every cached host of this database (after any change to a tenant or its labels). */
export function forgetHosts(db: Db): void {
  hostCaches.get(rootOf(db))?.clear();
}

/** Records what a fresh read found (also used by the signed-in statement). */
export function rememberHost(db: Db, label: string, tenant: Tenant | null, ttlMs: number): void {
  if (ttlMs <= 0) return;
  let cache = hostCaches.get(rootOf(db));
  if (!cache) hostCaches.set(rootOf(db), (cache = new Map()));
  // Unknown labels are kept too (a flood of made-up hosts stays off the database), bounded.
  if (cache.size >= 10_000) cache.clear();
  cache.set(label, { until: Date.now() + ttlMs, tenant });
}

export async function resolveHost(
  db: Db,
  hostname: string,
  portalDomain: string,
  opts: { ttlMs?: number; fresh?: boolean } = {},
): Promise<HostResolution> {
  const label = hostLabel(hostname, portalDomain);
  if (label === null) return { kind: 'main' };
  if (label === undefined) return { kind: 'unknown' };
  const ttl = opts.ttlMs ?? 0;
  if (!opts.fresh && ttl > 0) {
    const hit = hostCaches.get(rootOf(db))?.get(label);
    if (hit && hit.until > Date.now()) return hit.tenant ? { kind: 'tenant', tenant: hit.tenant } : { kind: 'unknown' };
  }
  // One label, one tenant: tenant_hosts' primary key (decision 0026).
  const row = await db.select({ tenant: tenants }).from(tenantHosts).innerJoin(tenants, eq(tenants.id, tenantHosts.tenantId)).where(eq(tenantHosts.label, label)).get();
  rememberHost(db, label, row?.tenant ?? null, ttl);
  return row ? { kind: 'tenant', tenant: row.tenant } : { kind: 'unknown' };
}

/** The label a tenant is reached at: custom subdomain if set, else the initial one. */
export function canonicalLabel(t: Pick<Tenant, 'subdomain' | 'initialSubdomain'>): string {
  return t.subdomain ?? t.initialSubdomain;
}

export function tenantOrigin(
  t: Pick<Tenant, 'subdomain' | 'initialSubdomain'>,
  portalDomain: string,
  currentUrl: URL,
  https: boolean,
): string {
  const port = currentUrl.port ? `:${currentUrl.port}` : '';
  return `${https ? 'https' : 'http'}://${canonicalLabel(t)}.${portalDomain}${port}`;
}

/**
 * Public origin for links in mail: the tenant's canonical host (or the main domain) under
 * PUBLIC_URL, from the database and configuration, never from the request's Host.
 */
export function publicOrigin(publicUrl: string, t: Pick<Tenant, 'subdomain' | 'initialSubdomain'> | null): string {
  const u = new URL(publicUrl);
  return t ? `${u.protocol}//${canonicalLabel(t)}.${u.host}` : u.origin;
}
