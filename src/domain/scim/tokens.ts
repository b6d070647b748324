// SCIM bearer tokens of a tenant (decision 0040), after the operator tokens (decisions 0018, 0036):
// "scim_<43 base64url chars>" (256 random bits), only its SHA-256 stored, one tenant each, good for
// that tenant's SCIM endpoint and nothing else, with an expiry chosen at creation (default one
// year). Admins make and revoke them on the "Provisioning (SCIM)" screen; the operators' CLI makes
// them too (`scim-token <tenant>`), so the creation statements are SQL text with `?` arguments that
// run through drizzle or through `wrangler d1 execute`, as the operator tokens' do.
//
// Rules that guard are decided inside the statement that writes: at most SCIM_TOKENS_PER_TENANT
// working tokens per tenant (the INSERT counts them), and a revoked or expired token is never
// found by the check (auth.ts).
import { asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { allRows, bound, rawStatement, rowsOf } from '../../db/client';
import { scimTokens, users } from '../../db/schema';
import type { Deps } from '../../deps';
import { SCIM_TOKEN_LIFETIME_DAYS, SCIM_TOKEN_NAME_PATTERN, type ScimTokenSummary } from '../../shared/scim/schemas';
import { AppError } from '../errors';
import type { RunSql, TokenDb } from '../operator/tokens';
import { randomToken, sha256Hex } from '../security/tokens';
import { scopedRead, type TenantScope } from '../tenants/scope';

export const SCIM_TOKEN_PREFIX = 'scim_';
export const SCIM_TOKEN_PATTERN = /^scim_[A-Za-z0-9_-]{43}$/;
/** Working (not revoked, not expired) tokens a tenant may hold at once: one per IdP and a spare for rotation, with room. */
export const SCIM_TOKENS_PER_TENANT = 10;
const DAY = 86_400_000;

const runner = (db: TokenDb): RunSql => (typeof db === 'function' ? db : (text, args) => allRows(db, text, args));

export function scimTokenLifetime(days: number | undefined): number {
  const d = days ?? SCIM_TOKEN_LIFETIME_DAYS.default;
  if (!Number.isInteger(d) || d < SCIM_TOKEN_LIFETIME_DAYS.min || d > SCIM_TOKEN_LIFETIME_DAYS.max) {
    throw new AppError('invalid-token-lifetime', { min: SCIM_TOKEN_LIFETIME_DAYS.min, max: SCIM_TOKEN_LIFETIME_DAYS.max });
  }
  return d * DAY;
}

export function cleanTokenName(name: string): string {
  const clean = name.trim();
  if (!SCIM_TOKEN_NAME_PATTERN.test(clean)) throw new AppError('invalid-token-name');
  return clean;
}

export interface NewScimToken {
  id: number;
  /** The secret, shown once. */
  token: string;
  name: string;
  createdAt: number;
  expiresAt: number;
}

/** Who made a token: an admin on the screen, or the operators' CLI (no user). */
export interface TokenMaker {
  userId: number | null;
  /** The audit entry's actor name when no user made it. */
  name: string | null;
  ip: string | null;
  userAgent: string | null;
}

/**
 * The statements that make a token, as SQL text: the token row (only while the tenant holds fewer
 * than SCIM_TOKENS_PER_TENANT working tokens, counted by the INSERT itself) and its audit entry
 * (written only if the row was). Run in one batch by the screen, one after the other by the CLI.
 */
function creationStatements(tenantId: number, name: string, tokenHash: string, expiresAt: number, maker: TokenMaker, now: number) {
  return [
    {
      text: `INSERT INTO scim_tokens (tenant_id, name, token_hash, created_by_user_id, created_at, expires_at)
        SELECT ?, ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM scim_tokens WHERE tenant_id = ? AND revoked_at IS NULL AND expires_at > ?) < ?
        RETURNING id`,
      args: [tenantId, name, tokenHash, maker.userId, now, expiresAt, tenantId, now, SCIM_TOKENS_PER_TENANT],
    },
    {
      text: `INSERT INTO activity_logs (tenant_id, actor_user_id, actor_email, actor_name, action, target_type, target_id, ip_address, user_agent, details, created_at)
        SELECT ?, ?, (SELECT email FROM users WHERE id = ?), coalesce((SELECT name FROM users WHERE id = ?), ?), 'scim.token_created', 'scim_token', CAST(t.id AS TEXT), ?, ?,
          json_object('name', t.name, 'expires_at', t.expires_at), ?
        FROM scim_tokens t WHERE t.token_hash = ?`,
      args: [tenantId, maker.userId, maker.userId, maker.userId, maker.name, maker.ip, maker.userAgent?.slice(0, 512) ?? null, now, tokenHash],
    },
  ];
}

/**
 * Makes a token for the tenant; the secret is in the answer and nowhere else. Refused with
 * `scim-token-limit` when the tenant already holds SCIM_TOKENS_PER_TENANT working tokens.
 */
export async function createScimToken(db: TokenDb, tenantId: number, input: { name: string; expiresInDays?: number }, maker: TokenMaker, now: number): Promise<NewScimToken> {
  const name = cleanTokenName(input.name);
  const expiresAt = now + scimTokenLifetime(input.expiresInDays);
  const token = `${SCIM_TOKEN_PREFIX}${randomToken(32)}`;
  const tokenHash = sha256Hex(token);
  const [insert, auditEntry] = creationStatements(tenantId, name, tokenHash, expiresAt, maker, now);
  let id: number | undefined;
  if (typeof db === 'function') {
    // The CLI through wrangler: one statement per call (the audit entry right after the row).
    const rows = await db(insert!.text, insert!.args);
    id = rows[0] ? Number(rows[0].id) : undefined;
    if (id !== undefined) await db(auditEntry!.text, auditEntry!.args);
  } else {
    const [made] = (await db.batch([rawStatement(db, bound(insert!.text, insert!.args)), rawStatement(db, bound(auditEntry!.text, auditEntry!.args))] as never)) as unknown[];
    const row = rowsOf(made)[0];
    id = row === undefined ? undefined : Number(row.id);
  }
  if (id === undefined || Number.isNaN(id)) throw new AppError('scim-token-limit', { max: SCIM_TOKENS_PER_TENANT });
  return { id, token, name, createdAt: now, expiresAt };
}

/** The tenant an operator names on the CLI: its id, initial or custom subdomain. */
export async function findTenantForCli(db: TokenDb, ref: string): Promise<{ id: number; name: string; initialSubdomain: string; ssoSubscribed: boolean } | null> {
  const byId = /^\d+$/.test(ref);
  const rows = await runner(db)(
    `SELECT id, name, initial_subdomain, feature_sso_users_limit FROM tenants WHERE ${byId ? 'id = ?' : 'initial_subdomain = ? OR subdomain = ?'}`,
    byId ? [Number(ref)] : [ref.toLowerCase(), ref.toLowerCase()],
  );
  const r = rows[0];
  if (!r) return null;
  return { id: Number(r.id), name: String(r.name), initialSubdomain: String(r.initial_subdomain), ssoSubscribed: Number(r.feature_sso_users_limit) >= 1 };
}

/** A token's state, for the list. */
function stateOf(t: { revokedAt: number | null; expiresAt: number }, now: number): ScimTokenSummary['state'] {
  if (t.revokedAt !== null) return 'revoked';
  return t.expiresAt <= now ? 'expired' : 'active';
}

/** The statement that reads the tenant's tokens (batchable; `tokenSummaries` shapes its rows). */
const tokenRows = scopedRead((s) =>
  s.db
    .select({
      id: scimTokens.id,
      name: scimTokens.name,
      createdAt: scimTokens.createdAt,
      expiresAt: scimTokens.expiresAt,
      revokedAt: scimTokens.revokedAt,
      lastUsedAt: scimTokens.lastUsedAt,
      lastUsedIp: scimTokens.lastUsedIp,
      createdBy: users.name,
      createdByEmail: users.email,
    })
    .from(scimTokens)
    .leftJoin(users, eq(users.id, scimTokens.createdByUserId))
    .where(s.own(scimTokens))
    .orderBy(asc(scimTokens.expiresAt), desc(scimTokens.id)),
);

export function scimTokensQuery(scope: TenantScope) {
  return tokenRows(scope, {});
}

/**
 * The tenant's tokens, never a secret or digest: working ones first (the one ending soonest on
 * top), then the ended ones, most recently made first.
 */
export function tokenSummaries(rows: Awaited<ReturnType<typeof scimTokensQuery>>, now: number): ScimTokenSummary[] {
  const iso = (v: number | null) => (v === null ? null : new Date(v).toISOString());
  const list = rows.map(
    (r): ScimTokenSummary => ({
      id: r.id,
      name: r.name,
      createdAt: iso(r.createdAt)!,
      expiresAt: iso(r.expiresAt)!,
      revokedAt: iso(r.revokedAt),
      lastUsedAt: iso(r.lastUsedAt),
      lastUsedIp: r.lastUsedIp,
      createdBy: r.createdBy ?? r.createdByEmail ?? null,
      state: stateOf(r, now),
    }),
  );
  const working = list.filter((t) => t.state === 'active');
  const ended = list.filter((t) => t.state !== 'active').sort((a, b) => b.id - a.id);
  return [...working, ...ended];
}

export async function listScimTokens(scope: TenantScope, now: number): Promise<ScimTokenSummary[]> {
  return tokenSummaries(await scimTokensQuery(scope), now);
}

/** Revokes one of the tenant's tokens from its next request on (a second revoke keeps the first time). */
export async function revokeScimToken(deps: Deps, scope: TenantScope, id: number, actor: { userId: number; ip: string | null; userAgent: string | null }): Promise<void> {
  const { db, clock } = deps;
  const now = clock.now();
  const [revoked] = (await db.batch([
    scope.update(scimTokens, { revokedAt: sql`coalesce(${scimTokens.revokedAt}, ${now})` }, eq(scimTokens.id, id)).returning({ id: scimTokens.id, name: scimTokens.name }),
    rawStatement(
      db,
      sql`INSERT INTO activity_logs (tenant_id, actor_user_id, actor_email, actor_name, action, target_type, target_id, ip_address, user_agent, details, created_at)
        SELECT ${scope.id}, ${actor.userId}, (SELECT email FROM users WHERE id = ${actor.userId}), (SELECT name FROM users WHERE id = ${actor.userId}), 'scim.token_revoked', 'scim_token',
          CAST(t.id AS TEXT), ${actor.ip}, ${actor.userAgent?.slice(0, 512) ?? null}, json_object('name', t.name), ${now}
        FROM scim_tokens t WHERE t.id = ${id} AND t.tenant_id = ${scope.id} AND t.revoked_at = ${now}`,
    ),
  ] as never)) as { id: number; name: string }[][];
  if (!revoked?.length) throw new AppError('not-found');
}

/** Whether the tenant holds a token that still works (the screen's "connected" hint). */
export async function hasWorkingToken(scope: TenantScope, now: number): Promise<boolean> {
  const row = await scope.db
    .select({ id: scimTokens.id })
    .from(scimTokens)
    .where(scope.own(scimTokens, isNull(scimTokens.revokedAt), sql`${scimTokens.expiresAt} > ${now}`))
    .get();
  return Boolean(row);
}
