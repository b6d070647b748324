// Operator API bearer tokens (docs/decisions/0018-operator-tokens.md). A token is
// "pop_<43 base64url chars>" (256 random bits); the database keeps only its SHA-256, so a leaked
// table does not yield usable tokens. Tokens are created and revoked by local administration
// (scripts/portal-cli.ts token ...), never over the API itself.
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { operatorTokens } from '../../db/schema';
import { OPERATOR_SCOPES, type OperatorScope } from '../../shared/operator-schemas';
import { AppError } from '../errors';
import { randomToken, safeEqual, sha256Hex } from '../security/tokens';

export const TOKEN_PREFIX = 'pop_';
const TOKEN_PATTERN = /^pop_[A-Za-z0-9_-]{43}$/;

export interface OperatorIdentity {
  tokenId: number;
  tokenName: string;
  scopes: OperatorScope[];
}

export function isScope(s: string): s is OperatorScope {
  return (OPERATOR_SCOPES as readonly string[]).includes(s);
}

/** A new token and the row to store (the caller writes it: the CLI may target D1 through wrangler). */
export function newOperatorToken(name: string, scopes: string[], now: number) {
  const clean = name.trim();
  if (!/^[\p{L}\p{N} ._@:-]{1,100}$/u.test(clean)) throw new AppError('invalid-token-name', 422);
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length || scopes.length === 0) throw new AppError('invalid-scopes', 422, { unknown });
  const token = `${TOKEN_PREFIX}${randomToken(32)}`;
  return { token, row: { name: clean, tokenHash: sha256Hex(token), scopes: [...new Set(scopes)].sort(), createdAt: now } };
}

export async function createOperatorToken(db: Db, name: string, scopes: string[], now: number) {
  const { token, row } = newOperatorToken(name, scopes, now);
  const saved = await db.insert(operatorTokens).values(row).returning({ id: operatorTokens.id }).get();
  return { id: saved.id, token, name: row.name, scopes: row.scopes };
}

export async function revokeOperatorToken(db: Db, id: number, now: number): Promise<boolean> {
  const r = await db.update(operatorTokens).set({ revokedAt: now }).where(eq(operatorTokens.id, id)).returning({ id: operatorTokens.id });
  return r.length === 1;
}

export async function listOperatorTokens(db: Db) {
  const rows = await db.select().from(operatorTokens).orderBy(desc(operatorTokens.id));
  return rows.map(({ tokenHash: _hash, ...r }) => r);
}

export type TokenCheck = { ok: true; identity: OperatorIdentity } | { ok: false; reason: 'invalid-token' };

/**
 * Looks the presented token up by its digest (the lookup itself reveals nothing about the secret:
 * an attacker cannot steer a SHA-256 digest), compares the digests in constant time anyway,
 * refuses revoked tokens, and notes the last use (at most once a minute, to spare writes).
 */
export async function authenticateOperator(db: Db, presented: string, now: number): Promise<TokenCheck> {
  if (!TOKEN_PATTERN.test(presented)) return { ok: false, reason: 'invalid-token' };
  const digest = sha256Hex(presented);
  const row = await db.select().from(operatorTokens).where(eq(operatorTokens.tokenHash, digest)).get();
  if (!row || !safeEqual(row.tokenHash, digest) || row.revokedAt !== null) return { ok: false, reason: 'invalid-token' };
  if (row.lastUsedAt === null || now - row.lastUsedAt > 60_000) {
    await db.update(operatorTokens).set({ lastUsedAt: now }).where(eq(operatorTokens.id, row.id));
  }
  return { ok: true, identity: { tokenId: row.id, tokenName: row.name, scopes: row.scopes.filter(isScope) } };
}
