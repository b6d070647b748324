// Operator API bearer tokens (docs/decisions/0018-operator-api-and-tokens.md, lifetimes and
// rotation in 0036). A token is "pop_<43 base64url chars>" (256 random bits); the database keeps
// only its SHA-256, so a leaked table does not yield usable tokens. Tokens are created, rotated and
// revoked by local administration (scripts/portal-cli.ts token ...), never over the API itself.
//
// The administration statements are SQL text with `?` arguments, run either through drizzle
// (`allRows`) or by the CLI through `wrangler d1 execute`, which takes no drizzle: one text for
// both, so D1 and libSQL cannot drift apart. Every rule that guards (a token's end, one successor
// per token) is decided inside the statement that reads or writes.
import { allRows, firstRow, type Db, type SqlArg } from '../../db/client';
import { OPERATOR_SCOPES, type OperatorScope } from '../../shared/operator/schemas';
import { AppError } from '../errors';
import { randomToken, safeEqual, sha256Hex } from '../security/tokens';

export const TOKEN_PREFIX = 'pop_';
const TOKEN_PATTERN = /^pop_[A-Za-z0-9_-]{43}$/;
const DAY = 86_400_000;
const MINUTE = 60_000;

/** Lifetime chosen at creation and rotation, in whole days. */
export const TOKEN_LIFETIME_DAYS = { default: 90, min: 1, max: 365 } as const;
/** How long a rotated token keeps working beside its successor, in minutes (0: it ends at once). */
export const ROTATION_OVERLAP_MINUTES = { default: 0, max: 24 * 60 } as const;

/** Runs one statement with `?` arguments and answers its rows keyed by column name. */
export type RunSql = (text: string, args: SqlArg[]) => Promise<Record<string, unknown>[]>;
/** A drizzle handle, or a runner of SQL text (the CLI's D1 through wrangler). */
export type TokenDb = Db | RunSql;

const runner = (db: TokenDb): RunSql => (typeof db === 'function' ? db : (text, args) => allRows(db, text, args));

export interface OperatorIdentity {
  tokenId: number;
  tokenName: string;
  scopes: OperatorScope[];
}

export function isScope(s: string): s is OperatorScope {
  return (OPERATOR_SCOPES as readonly string[]).includes(s);
}

function lifetime(days: number | undefined): number {
  const d = days ?? TOKEN_LIFETIME_DAYS.default;
  if (!Number.isInteger(d) || d < TOKEN_LIFETIME_DAYS.min || d > TOKEN_LIFETIME_DAYS.max) {
    throw new AppError('invalid-token-lifetime', { min: TOKEN_LIFETIME_DAYS.min, max: TOKEN_LIFETIME_DAYS.max });
  }
  return d * DAY;
}

function overlap(minutes: number | undefined): number {
  const m = minutes ?? ROTATION_OVERLAP_MINUTES.default;
  if (!Number.isInteger(m) || m < 0 || m > ROTATION_OVERLAP_MINUTES.max) {
    throw new AppError('invalid-rotation-overlap', { max: ROTATION_OVERLAP_MINUTES.max });
  }
  return m * MINUTE;
}

/** A new secret and its digest (the secret is shown once and never stored). */
function newSecret() {
  const token = `${TOKEN_PREFIX}${randomToken(32)}`;
  return { token, tokenHash: sha256Hex(token) };
}

export interface NewToken {
  id: number;
  /** The secret, shown once. */
  token: string;
  name: string;
  scopes: string[];
  createdAt: number;
  expiresAt: number;
}

export async function createOperatorToken(db: TokenDb, name: string, scopes: string[], now: number, opts: { expiresInDays?: number } = {}): Promise<NewToken> {
  const clean = name.trim();
  if (!/^[\p{L}\p{N} ._@:-]{1,100}$/u.test(clean)) throw new AppError('invalid-token-name');
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length || scopes.length === 0) throw new AppError('invalid-scopes', { unknown });
  const sorted = [...new Set(scopes)].sort();
  const expiresAt = now + lifetime(opts.expiresInDays);
  const { token, tokenHash } = newSecret();
  const [row] = await runner(db)(
    'INSERT INTO operator_tokens (name, token_hash, scopes, created_at, expires_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
    [clean, tokenHash, JSON.stringify(sorted), now, expiresAt],
  );
  return { id: Number(row!.id), token, name: clean, scopes: sorted, createdAt: now, expiresAt };
}

export interface RotatedToken extends NewToken {
  /** The token it replaced and when that one stops working (now, or after the overlap). */
  replaced: { id: number; endsAt: number };
}

/**
 * Replaces token `id` with a new one of the same name and scopes, in ONE statement: the new row
 * copies name and scopes from the old and records which token it replaces and until when that one
 * works, so a crash leaves either no change or both at once (never two full-lifetime tokens, never
 * none). A token has at most one successor (checked in the statement, and by a unique index if
 * two rotations race); a revoked token is not rotated (its trust was withdrawn on purpose). An
 * expired one may be: that is how a lapsed tool gets a new token with the same scopes.
 */
export async function rotateOperatorToken(db: TokenDb, id: number, now: number, opts: { expiresInDays?: number; overlapMinutes?: number } = {}): Promise<RotatedToken> {
  const expiresAt = now + lifetime(opts.expiresInDays);
  const oldEndsAt = now + overlap(opts.overlapMinutes);
  const { token, tokenHash } = newSecret();
  const run = runner(db);
  let rows: Record<string, unknown>[];
  try {
    rows = await run(
      `INSERT INTO operator_tokens (name, token_hash, scopes, created_at, expires_at, replaces_id, replaces_until)
       SELECT o.name, ?, o.scopes, ?, ?, o.id, min(o.expires_at, ?) FROM operator_tokens o
       WHERE o.id = ? AND o.revoked_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM operator_tokens s WHERE s.replaces_id = o.id)
       RETURNING id, name, scopes, replaces_until`,
      [tokenHash, now, expiresAt, oldEndsAt, id],
    );
  } catch (e) {
    // Two rotations of one token at once: the unique index let one through.
    if (!/UNIQUE constraint failed: operator_tokens\.replaces_id/.test(`${String(e)} ${String((e as { cause?: unknown }).cause ?? '')}`)) throw e;
    rows = [];
  }
  const row = rows[0];
  if (!row) {
    // Nothing written: say why (this read only explains; the statement above decided).
    const [old] = await run('SELECT o.revoked_at, s.id AS successor FROM operator_tokens o LEFT JOIN operator_tokens s ON s.replaces_id = o.id WHERE o.id = ?', [id]);
    if (!old) throw new AppError('not-found');
    if (old.successor !== null && old.successor !== undefined) throw new AppError('token-already-rotated', { successor: Number(old.successor) });
    throw new AppError('token-revoked');
  }
  return {
    id: Number(row.id),
    token,
    name: String(row.name),
    scopes: JSON.parse(String(row.scopes)) as string[],
    createdAt: now,
    expiresAt,
    replaced: { id, endsAt: Number(row.replaces_until) },
  };
}

/** Revokes a token from its next call on (a second revoke keeps the first time). False: no such token. */
export async function revokeOperatorToken(db: TokenDb, id: number, now: number): Promise<boolean> {
  const rows = await runner(db)('UPDATE operator_tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING id', [now, id]);
  return rows.length === 1;
}

export type TokenState = 'active' | 'ending' | 'rotated' | 'expired' | 'revoked';

export interface TokenSummary {
  id: number;
  name: string;
  scopes: string[];
  createdAt: number;
  /** The lifetime chosen at creation. */
  expiresAt: number;
  /** When it stops (stopped) working: the expiry, or a rotation's end if sooner; null once revoked. */
  endsAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
  lastUsedIp: string | null;
  /** The token it replaced, and the one that replaced it. */
  replacesId: number | null;
  replacedById: number | null;
  state: TokenState;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * Every token, never a secret or digest: usable ones first, soonest to end at the top (what needs
 * attention next), then the ended ones, most recently ended first.
 */
export async function listOperatorTokens(db: TokenDb, now: number): Promise<TokenSummary[]> {
  const rows = await runner(db)(
    `SELECT t.id, t.name, t.scopes, t.created_at, t.expires_at, t.revoked_at, t.last_used_at, t.last_used_ip, t.replaces_id,
            s.id AS replaced_by_id, s.replaces_until AS replaced_until
     FROM operator_tokens t LEFT JOIN operator_tokens s ON s.replaces_id = t.id`,
    [],
  );
  const tokens = rows.map((r): TokenSummary => {
    const expiresAt = Number(r.expires_at);
    const replacedUntil = num(r.replaced_until);
    const revokedAt = num(r.revoked_at);
    const endsAt = replacedUntil === null ? expiresAt : Math.min(expiresAt, replacedUntil);
    const state: TokenState =
      revokedAt !== null ? 'revoked' : endsAt <= now ? (replacedUntil !== null && replacedUntil < expiresAt ? 'rotated' : 'expired') : replacedUntil !== null ? 'ending' : 'active';
    return {
      id: Number(r.id),
      name: String(r.name),
      scopes: JSON.parse(String(r.scopes)) as string[],
      createdAt: Number(r.created_at),
      expiresAt,
      endsAt: revokedAt === null ? endsAt : null,
      revokedAt,
      lastUsedAt: num(r.last_used_at),
      lastUsedIp: r.last_used_ip === null || r.last_used_ip === undefined ? null : String(r.last_used_ip),
      replacesId: num(r.replaces_id),
      replacedById: num(r.replaced_by_id),
      state,
    };
  });
  const usable = (t: TokenSummary) => t.state === 'active' || t.state === 'ending';
  const ended = (t: TokenSummary) => t.revokedAt ?? t.endsAt ?? 0;
  return tokens.sort((a, b) => {
    if (usable(a) !== usable(b)) return usable(a) ? -1 : 1;
    return usable(a) ? a.endsAt! - b.endsAt! || a.id - b.id : ended(b) - ended(a) || b.id - a.id;
  });
}

/**
 * The part of a presented credential that failed attempts are counted under (with the client
 * address): `pop_` and the next 8 characters, 48 of the secret's 256 bits, never the whole secret.
 * One tool with a broken token then fills a bucket of its own; anything else presented is cut the
 * same way.
 */
export function failureBucket(presented: string): string {
  return presented.slice(0, TOKEN_PREFIX.length + 8);
}

export type TokenCheck = { ok: true; identity: OperatorIdentity } | { ok: false; reason: 'invalid-token' };

/**
 * Looks the presented token up by its digest (the lookup itself reveals nothing about the secret:
 * an attacker cannot steer a SHA-256 digest) among tokens that still work — not revoked, not
 * expired, not ended by a rotation — in one statement, compares the digests in constant time
 * anyway, and notes the last use and its address (at most once a minute, or when the address
 * changes, to spare writes). Unknown, expired, rotated and revoked tokens get the same answer.
 */
export async function authenticateOperator(db: Db, presented: string, now: number, ip: string | null = null): Promise<TokenCheck> {
  if (!TOKEN_PATTERN.test(presented)) return { ok: false, reason: 'invalid-token' };
  const digest = sha256Hex(presented);
  const row = await firstRow(
    db,
    `SELECT t.id, t.name, t.scopes, t.token_hash, t.last_used_at, t.last_used_ip FROM operator_tokens t
     WHERE t.token_hash = ? AND t.revoked_at IS NULL AND t.expires_at > ?
       AND NOT EXISTS (SELECT 1 FROM operator_tokens s WHERE s.replaces_id = t.id AND s.replaces_until <= ?)`,
    [digest, now, now],
  );
  if (!row || !safeEqual(String(row[3]), digest)) return { ok: false, reason: 'invalid-token' };
  const [id, name, scopes, , lastUsedAt, lastUsedIp] = row as [number, string, string, string, number | null, string | null];
  if (lastUsedAt === null || now - Number(lastUsedAt) > MINUTE || (ip !== null && ip !== lastUsedIp)) {
    await allRows(db, 'UPDATE operator_tokens SET last_used_at = ?, last_used_ip = ? WHERE id = ?', [now, ip, Number(id)]);
  }
  const parsed = JSON.parse(String(scopes)) as string[];
  return { ok: true, identity: { tokenId: Number(id), tokenName: String(name), scopes: parsed.filter(isScope) } };
}
