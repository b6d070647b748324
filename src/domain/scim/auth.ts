// Who may call a tenant's SCIM endpoint (decision 0040): a bearer token of THAT tenant, not
// revoked, not expired, on one of the tenant's hosts, while the tenant has the SSO subscription.
// Everything is decided in ONE batch, one round trip to D1:
//
//  1. a failed attempt is counted per client address and presented token's prefix, and
//  2. per address (only while the first is within its maximum), both inside the statements that
//     also decide whether the token is good (a good token costs nothing there; decision 0036's
//     limits, reserved in the statement that checks rather than before it);
//  3. a good token's requests are counted against its per-minute budget;
//  4. the counters are read back, so over a limit even a good token is refused (no oracle);
//  5. the token is looked up with its tenant, the host's label decided in the statement (no cache
//     decides which tenant a host is, decision 0035);
//  6. its last use and address are noted (at most once a minute, or when the address changes);
//  7. a read request's own statements follow, guarded by the same token check, so a filtered GET
//     is answered in this one round trip as well.
import { and, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import { distinctColumns, type Db } from '../../db/client';
import { scimTokens, tenantHosts, tenants, throttles, type Tenant } from '../../db/schema';
import { hitsStatement, reserveWhenStatement, waitFor, type Limit } from '../security/limiter';
import { addressKey } from '../security/network';
import { safeEqual, sha256Hex } from '../security/tokens';
import type { TenantScope } from '../tenants/scope';
import { SCIM_TOKEN_PREFIX } from './tokens';

/** Failed tokens per client address and presented token's prefix (one broken IdP connection locks only itself). */
export const SCIM_TOKEN_FAILURE_LIMIT = { max: 20, windowMs: 10 * 60_000 } as const;
/** Failed tokens per client address, counted only while that token's own limit is not reached (stops spraying). */
export const SCIM_ADDRESS_FAILURE_LIMIT = { max: 100, windowMs: 10 * 60_000 } as const;
/** The window of a token's request budget (SCIM_REQUESTS_PER_MINUTE requests each). */
export const SCIM_REQUEST_WINDOW_MS = 60_000;

/** The part of a presented credential failures are counted under: `scim_` and 8 more (48 of 256 bits). */
export function scimFailureBucket(presented: string): string {
  return presented.slice(0, SCIM_TOKEN_PREFIX.length + 8);
}

/** Who changed something through SCIM: the token, named in the audit log as the actor. */
export interface ScimActor {
  tokenId: number;
  tokenName: string;
  ip: string | null;
  userAgent: string | null;
}

export interface ScimCredential {
  /** The bearer token as presented. */
  presented: string;
  /** The request's host label (a tenant's initial or custom subdomain). */
  label: string;
  ip: string | null;
  now: number;
  requestsPerMinute: number;
}

/** Statements a read runs in the check's batch, and how to read their answers. */
export interface ScimRead<R> {
  statements: unknown[];
  parse(results: unknown[]): R;
}

export type ScimAuth<R> =
  | { kind: 'ok'; tenant: Tenant; token: { id: number; name: string }; read: { tenantId: number; value: R } | null }
  | { kind: 'invalid' }
  | { kind: 'limited'; wait: number }
  | { kind: 'not-subscribed' };

/** The statement-level condition "the presented token is good on this host". */
function goodToken(digest: string, label: string, now: number) {
  return sql`EXISTS (SELECT 1 FROM scim_tokens t JOIN tenant_hosts h ON h.tenant_id = t.tenant_id
    WHERE t.token_hash = ${digest} AND t.revoked_at IS NULL AND t.expires_at > ${now} AND h.label = ${label})`;
}

/**
 * The guard a read of `scope`'s data carries: rows come back only when the presented token is a
 * working token of that tenant and the tenant has the subscription.
 */
export function readGuard(scope: TenantScope, presented: string, now: number): SQL {
  return sql`EXISTS (SELECT 1 FROM scim_tokens g JOIN tenants gt ON gt.id = g.tenant_id
    WHERE g.token_hash = ${sha256Hex(presented)} AND g.tenant_id = ${scope.id} AND g.revoked_at IS NULL AND g.expires_at > ${now} AND gt.feature_sso_users_limit >= 1)`;
}

/**
 * Checks the credential in one batch (see the top of this file). `read`, when given, is a read of
 * the tenant the host named when the request began (perhaps from the host cache): its answer is
 * kept only when that tenant is the token's (the caller reads again otherwise).
 */
export async function authenticateScim<R>(db: Db, cred: ScimCredential, read?: { scope: TenantScope; read: ScimRead<R> }): Promise<ScimAuth<R>> {
  const { presented, label, now } = cred;
  const digest = sha256Hex(presented);
  const address = addressKey(cred.ip);
  const perToken: Limit = { key: `scim-auth:tok:${address}:${scimFailureBucket(presented)}`, ...SCIM_TOKEN_FAILURE_LIMIT };
  const perAddress: Limit = { key: `scim-auth:ip:${address}`, ...SCIM_ADDRESS_FAILURE_LIMIT, onlyWithin: perToken };
  const good = goodToken(digest, label, now);
  const bad = sql`NOT ${good}`;
  const budgetReset = now + SCIM_REQUEST_WINDOW_MS;
  const statements: unknown[] = [
    reserveWhenStatement(db, perToken, now, bad),
    reserveWhenStatement(db, perAddress, now, bad),
    db
      .insert(throttles)
      .select(
        sql`select 'scim-req:' || t.id, 1, ${budgetReset} from scim_tokens t join tenant_hosts h on h.tenant_id = t.tenant_id
          where t.token_hash = ${digest} and t.revoked_at is null and t.expires_at > ${now} and h.label = ${label}`,
      )
      .onConflictDoUpdate({
        target: throttles.key,
        set: {
          hits: sql`case when ${throttles.resetAt} <= ${now} then 1 else ${throttles.hits} + 1 end`,
          resetAt: sql`case when ${throttles.resetAt} <= ${now} then ${budgetReset} else ${throttles.resetAt} end`,
        },
      })
      .returning({ hits: throttles.hits, resetAt: throttles.resetAt }),
    hitsStatement(db, [perToken, perAddress], now),
    db
      // Joined columns aliased: D1 answers a batch's rows by column name (distinctColumns).
      .select({ id: scimTokens.id, name: scimTokens.name, tokenHash: scimTokens.tokenHash, tenant: distinctColumns(tenants, 't') })
      .from(scimTokens)
      .innerJoin(tenants, eq(tenants.id, scimTokens.tenantId))
      .innerJoin(tenantHosts, eq(tenants.id, tenantHosts.tenantId))
      .where(and(eq(scimTokens.tokenHash, digest), isNull(scimTokens.revokedAt), gt(scimTokens.expiresAt, now), eq(tenantHosts.label, label))),
    db
      .update(scimTokens)
      .set({ lastUsedAt: now, lastUsedIp: cred.ip })
      .where(
        and(
          eq(scimTokens.tokenHash, digest),
          isNull(scimTokens.revokedAt),
          gt(scimTokens.expiresAt, now),
          sql`(${scimTokens.lastUsedAt} IS NULL OR ${scimTokens.lastUsedAt} <= ${now - 60_000} OR ${scimTokens.lastUsedIp} IS NOT ${cred.ip})`,
        ),
      ),
    ...(read?.read.statements ?? []),
  ];
  const results = (await db.batch(statements as never)) as unknown[];
  const hits = results[3] as { key: string; hits: number; resetAt: number }[];
  const wait = waitFor([perToken, perAddress], hits, now);
  if (wait > 0) return { kind: 'limited', wait };
  const found = (results[4] as { id: number; name: string; tokenHash: string; tenant: Tenant }[])[0];
  // The digest matched in the index; compared in constant time all the same.
  if (!found || !safeEqual(found.tokenHash, digest)) return { kind: 'invalid' };
  const budget = (results[2] as { hits: number; resetAt: number }[])[0];
  if (budget && budget.hits > cred.requestsPerMinute) return { kind: 'limited', wait: Math.max(1, Math.ceil((budget.resetAt - now) / 1000)) };
  if (found.tenant.featureSsoUsersLimit < 1) return { kind: 'not-subscribed' };
  const value = read ? read.read.parse(results.slice(6)) : null;
  return {
    kind: 'ok',
    tenant: found.tenant,
    token: { id: found.id, name: found.name },
    read: read && value !== null ? { tenantId: read.scope.id, value } : null,
  };
}
