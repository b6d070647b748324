// WebAuthn challenges (decision 0039). The server makes every challenge (32 random bytes), keeps it
// in a row for five minutes, binds it to the browser that asked (the hash of its device cookie) and
// to what the ceremony is for, and lets it be used once: the row is claimed by compare-and-set
// *before* the authenticator's answer is checked, so N answers carrying one challenge, sent in
// parallel, are checked once, and a failed answer spends its challenge like a successful one.
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { passkeyChallenges } from '../../db/schema';
import { randomToken, sha256Hex } from '../security/tokens';

/** How long a ceremony may take, in the browser's dialog and on the server. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export type CeremonyPurpose = (typeof passkeyChallenges.$inferSelect)['purpose'];
export type ClaimedChallenge = typeof passkeyChallenges.$inferSelect;

export interface ChallengeBinding {
  purpose: CeremonyPurpose;
  /** The browser's device cookie (routes/http/cookies.ts `browserCookies(c).device`). */
  browser: string;
  /** The request's own origin (it names the RP ID; not stored: the answer's origin is checked). */
  origin: string;
  /** The host's tenant (null: the main domain). */
  tenantId: number | null;
  userId?: number | null;
  sessionId?: string | null;
  loginChallengeId?: string | null;
}

/** The stored form of a browser's device cookie for this purpose (separate from its other uses). */
function browserHash(browser: string): string {
  return sha256Hex(`passkey-ceremony:${browser}`);
}

/** A new challenge, stored with what it is bound to; the base64url string the options carry. */
export async function issueChallenge(deps: Deps, b: ChallengeBinding): Promise<string> {
  const now = deps.clock.now();
  const challenge = randomToken(32);
  await deps.db.insert(passkeyChallenges).values({
    challenge,
    purpose: b.purpose,
    browserHash: browserHash(b.browser),
    tenantId: b.tenantId,
    userId: b.userId ?? null,
    sessionId: b.sessionId ?? null,
    loginChallengeId: b.loginChallengeId ?? null,
    expiresAt: now + CHALLENGE_TTL_MS,
    createdAt: now,
  });
  return challenge;
}

/**
 * Claims the challenge an authenticator's answer carries (its clientDataJSON): it must be one this
 * server made for this purpose, for this browser and this host, not used and not expired. Marks
 * it used in the same statement; null when any of that fails (the caller answers as for a wrong
 * signature). The binding beyond the host (user, session, pending login) is the caller's to compare.
 */
export async function claimChallenge(deps: Deps, challenge: string, b: Pick<ChallengeBinding, 'purpose' | 'browser' | 'tenantId'>): Promise<ClaimedChallenge | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) return null;
  const now = deps.clock.now();
  const row = await deps.db
    .update(passkeyChallenges)
    .set({ usedAt: now })
    .where(
      and(
        eq(passkeyChallenges.challenge, challenge),
        eq(passkeyChallenges.purpose, b.purpose),
        eq(passkeyChallenges.browserHash, browserHash(b.browser)),
        isNull(passkeyChallenges.usedAt),
        gt(passkeyChallenges.expiresAt, now),
      ),
    )
    .returning()
    .get();
  if (!row || row.tenantId !== b.tenantId) return null;
  return row;
}
