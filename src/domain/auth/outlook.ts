// Outlook add-in sign-in (spec 01 section 4): the add-in opens the portal's login with
// source=outlook and a random token of its own; after sign-in the portal maps that token to the
// user. The token is stored hashed, expires in 5 minutes and is exchanged by the add-in's
// backend once. See docs/decisions/0007-outlook-and-mobile.md.
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { outlookAddinTokens, users, type User } from '../../db/schema';
import { AppError } from '../errors';
import { audit } from '../audit/log';
import { sha256Hex } from '../security/tokens';

export const ADDIN_TOKEN_TTL_MS = 5 * 60_000;
export const ADDIN_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32,128}$/;

/** POST outlook-sso/map-user: binds a fresh add-in token to the signed-in user, once. */
export async function mapAddinToken(deps: Deps, user: User, tenantId: number | null, token: string, ip: string | null): Promise<void> {
  const now = deps.clock.now();
  const inserted = await deps.db
    .insert(outlookAddinTokens)
    .values({ tokenHash: sha256Hex(token), userId: user.id, tenantId, expiresAt: now + ADDIN_TOKEN_TTL_MS, createdAt: now })
    .onConflictDoNothing()
    .returning({ tokenHash: outlookAddinTokens.tokenHash });
  // A token seen before is refused: it may already belong to someone else.
  if (inserted.length === 0) throw new AppError('token-already-used', 409);
  await audit(deps.db, { tenantId, actorUserId: user.id, action: 'outlook.token_mapped', ipAddress: ip }, now);
}

/** The add-in backend redeems its token for the user it was mapped to (single use). */
export async function redeemAddinToken(deps: Deps, token: string) {
  const now = deps.clock.now();
  const row = await deps.db
    .update(outlookAddinTokens)
    .set({ usedAt: now })
    .where(and(eq(outlookAddinTokens.tokenHash, sha256Hex(token)), isNull(outlookAddinTokens.usedAt), gt(outlookAddinTokens.expiresAt, now)))
    .returning()
    .get();
  if (!row?.userId) throw new AppError('invalid-token', 404);
  const user = await deps.db.select().from(users).where(eq(users.id, row.userId)).get();
  if (!user) throw new AppError('invalid-token', 404);
  return { user_id: user.id, email: user.email, name: user.name, tenant_id: row.tenantId };
}
