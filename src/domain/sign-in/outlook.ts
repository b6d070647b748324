// Outlook add-in sign-in (spec 01 section 4, decision 0007): the add-in keeps a random verifier
// and opens the portal's login with source=outlook and token = base64url(SHA-256(verifier)) (as
// PKCE's S256). After the person signs in and confirms, the token is mapped to them; only the
// holder of the verifier can redeem the mapping (once, within 5 minutes), so a token read from a
// URL, a log or a planted link is worth nothing.
import { and, eq, gt, isNull } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import type { Deps } from '../../deps';
import { outlookAddinTokens, users, type User } from '../../db/schema';
import { AppError } from '../errors';
import { audit } from '../audit/log';
import { sha256Hex } from '../security/tokens';

export const ADDIN_TOKEN_TTL_MS = 5 * 60_000;
/** The token in the URL: base64url of a SHA-256 (43 characters). */
export const ADDIN_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What the add-in's verifier hashes to: the token it put in the login URL. */
export function addinChallengeOf(verifier: string): string {
  return createHash('sha256').update(verifier, 'utf8').digest('base64url');
}

/** POST outlook-sso/map-user: binds a fresh add-in token to the signed-in user, once. */
export async function mapAddinToken(deps: Deps, user: User, tenantId: number | null, token: string, ip: string | null): Promise<void> {
  const now = deps.clock.now();
  const inserted = await deps.db
    .insert(outlookAddinTokens)
    .values({ tokenHash: sha256Hex(token), userId: user.id, tenantId, expiresAt: now + ADDIN_TOKEN_TTL_MS, createdAt: now })
    .onConflictDoNothing()
    .returning({ tokenHash: outlookAddinTokens.tokenHash });
  // A token seen before is refused: it may already belong to someone else.
  if (inserted.length === 0) throw new AppError('token-already-used');
  await audit(deps.db, { tenantId, actorUserId: user.id, action: 'outlook.token_mapped', ipAddress: ip }, now);
}

/** The add-in redeems its mapping with the verifier behind the token (single use). */
export async function redeemAddinToken(deps: Deps, verifier: string) {
  const now = deps.clock.now();
  const token = addinChallengeOf(verifier);
  const row = await deps.db
    .update(outlookAddinTokens)
    .set({ usedAt: now })
    .where(and(eq(outlookAddinTokens.tokenHash, sha256Hex(token)), isNull(outlookAddinTokens.usedAt), gt(outlookAddinTokens.expiresAt, now)))
    .returning()
    .get();
  if (!row?.userId) throw new AppError('addin-token-invalid');
  const user = await deps.db.select().from(users).where(eq(users.id, row.userId)).get();
  if (!user) throw new AppError('addin-token-invalid');
  return { user_id: user.id, email: user.email, name: user.name, tenant_id: row.tenantId };
}
