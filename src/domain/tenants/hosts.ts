// Host -> tenant. "<label>.<PORTAL_DOMAIN>" is the tenant whose custom or initial subdomain is
// <label>; the bare domain is the main domain; anything else is unknown (404, never a fallback).
import { eq } from 'drizzle-orm';
import { rootOf, type Db } from '../../db/client';
import { tenantHosts, tenants, type Tenant } from '../../db/schema';

declare const read: unique symbol;
/**
 * A tenant as stored now, read by this request from the database (never from a cache; on
 * Workers from a D1 session that started at the primary or after the request's own write).
 * Only what decides access takes one (completeSignIn and the entry rules), so a cached copy
 * cannot reach a decision: the type has no other source than the readers in this file and the
 * request's own statement (domain/sign-in/request-auth.ts). Decision 0035.
 */
export type FreshTenant = Tenant & { readonly [read]: true };

/** For the readers of this request's own rows only. */
export const asRead = (t: Tenant): FreshTenant => t as FreshTenant;

export type HostResolution =
  | { kind: 'main' }
  | { kind: 'tenant'; tenant: FreshTenant; cached: false }
  | { kind: 'tenant'; tenant: Tenant; cached: true }
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
// keeps what it read for a short while, per database handle. Only signed-out reads use it, and a
// cached tenant is a plain `Tenant`, which nothing that decides access accepts: a state-changing
// request reads afresh (`fresh`), and a signed-in request reads its tenant in the same statement
// as its session (domain/sign-in/request-auth.ts), so policy is never stale there.
// Kept per database (a request's D1 session counts as its database: rootOf).
// A change forgets every cached host at once, in this process and (Node, several processes)
// in the others, through `hostChanges` (entry/node.ts relays it through the primary).
const hostCaches = new WeakMap<object, Map<string, { until: number; generation: number; tenant: Tenant | null }>>();
/** Entries of an older generation are void: forgetAllHosts cannot walk a WeakMap. */
let generation = 0;

/** Where a process tells its siblings that tenants changed (set by the runtime's entry). */
export const hostChanges: { publish: (() => void) | null } = { publish: null };

/** Drops every cached host of this process (a sibling process's change, relayed to it). */
export function forgetAllHosts(): void {
  generation++;
}

/** Drops every cached host of this database (after any change to a tenant or its labels). */
export function forgetHosts(db: Db): void {
  hostCaches.get(rootOf(db))?.clear();
  hostChanges.publish?.();
}

/** Records what a fresh read found (also used by the signed-in statement). */
export function rememberHost(db: Db, label: string, tenant: Tenant | null, ttlMs: number): void {
  if (ttlMs <= 0) return;
  let cache = hostCaches.get(rootOf(db));
  if (!cache) hostCaches.set(rootOf(db), (cache = new Map()));
  // Unknown labels are kept too (a flood of made-up hosts stays off the database), bounded.
  if (cache.size >= 10_000) cache.clear();
  cache.set(label, { until: Date.now() + ttlMs, generation, tenant });
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
    if (hit && hit.until > Date.now() && hit.generation === generation) return hit.tenant ? { kind: 'tenant', tenant: hit.tenant, cached: true } : { kind: 'unknown' };
  }
  // One label, one tenant: tenant_hosts' primary key (decision 0026).
  const row = await db.select({ tenant: tenants }).from(tenantHosts).innerJoin(tenants, eq(tenants.id, tenantHosts.tenantId)).where(eq(tenantHosts.label, label)).get();
  rememberHost(db, label, row?.tenant ?? null, ttl);
  return row ? { kind: 'tenant', tenant: asRead(row.tenant), cached: false } : { kind: 'unknown' };
}

/**
 * A tenant by id as stored now (after the request's own write on Workers, so its D1 session
 * reads at least what the primary had then), for a decision a signed-out GET makes.
 */
export async function readTenant(db: Db, id: number): Promise<FreshTenant | null> {
  const row = await db.select().from(tenants).where(eq(tenants.id, id)).get();
  return row ? asRead(row) : null;
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
