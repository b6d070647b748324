// Sessions as rows (Lucia-style): the cookie carries a random token, the row only its hash.
// Ordinary sessions expire after an idle period (sliding) and at the latest SESSION_MAX_DAYS after
// the person authenticated; remembered ones N days after it. Hand-offs keep the moment the person
// authenticated, so hopping between hosts never extends a session.
import { eq } from 'drizzle-orm';
import { rootOf, type Db } from '../../db/client';
import { sessions, tenantUsers, type Session, type TenantUser } from '../../db/schema';
import type { Geo } from '../../deps';
import { randomToken, sha256Hex } from '../security/tokens';
import { parseAgent } from './user-agent';

export interface SessionPolicy {
  rememberDays: number;
  idleMinutes: number;
  maxDays: number;
}

/** Writes for activity tracking happen at most once per minute per session. */
const TOUCH_INTERVAL_MS = 60_000;

export interface NewSession {
  userId: number;
  tenantId: number | null;
  remember: boolean;
  twofaPassed: boolean;
  authMethod: 'password' | 'sso' | 'handoff' | 'passkey';
  /** Made with a passkey, or a hand-off of such a session (decision 0039). */
  passkeyVerified?: boolean;
  /** When the person proved who they are (now, or a hand-off's source session's). */
  authenticatedAt: number;
  ssoTenantId: number | null;
  twofaSkipped: boolean;
  userAgent: string | null;
  ip: string | null;
  geo: Geo | null;
  /** SSO sessions only: what single logout needs. */
  saml?: { nameId: string; nameIdFormat: string | null; sessionIndex: string | null };
}

/** The instant after which the session never works, however active it is. */
export function absoluteExpiry(remember: boolean, authenticatedAt: number, p: SessionPolicy): number {
  return authenticatedAt + (remember ? p.rememberDays : p.maxDays) * 86_400_000;
}

/** Expiry as of `now`: the idle limit (ordinary sessions) capped by the absolute lifetime. */
export function sessionExpiry(remember: boolean, now: number, authenticatedAt: number, p: SessionPolicy): number {
  const absolute = absoluteExpiry(remember, authenticatedAt, p);
  return remember ? absolute : Math.min(now + p.idleMinutes * 60_000, absolute);
}

/** Builds the insert (so callers can batch it with related writes) and the cookie token. */
export function prepareSession(db: Db, s: NewSession, now: number, p: SessionPolicy) {
  const token = randomToken(32);
  const id = randomToken(16);
  const agent = parseAgent(s.userAgent);
  const insert = db.insert(sessions).values({
    id,
    tokenHash: sha256Hex(token),
    userId: s.userId,
    tenantId: s.tenantId,
    remember: s.remember,
    twofaPassed: s.twofaPassed,
    authMethod: s.authMethod,
    device: agent.device,
    os: agent.os,
    browser: agent.browser,
    isNextaMeishiApp: agent.isNextaMeishiApp,
    ipAddress: s.ip,
    countryCode: s.geo?.countryCode ?? null,
    country: s.geo?.country ?? null,
    city: s.geo?.city ?? null,
    region: s.geo?.state ?? null,
    samlNameId: s.saml?.nameId ?? null,
    samlNameIdFormat: s.saml?.nameIdFormat ?? null,
    samlSessionIndex: s.saml?.sessionIndex ?? null,
    authenticatedAt: s.authenticatedAt,
    ssoTenantId: s.ssoTenantId,
    twofaSkipped: s.twofaSkipped,
    passkeyVerified: s.passkeyVerified ?? false,
    createdAt: now,
    lastActivityAt: now,
    expiresAt: sessionExpiry(s.remember, now, s.authenticatedAt, p),
  });
  return { token, id, insert, expiresAt: sessionExpiry(s.remember, now, s.authenticatedAt, p) };
}

/**
 * A session row read for a request (domain/sign-in/request-auth.ts reads it with its user and
 * membership in one statement): null when its absolute lifetime has passed. Activity (and the
 * membership's last_active_at) is recorded at most once a minute, by `touch`, which the caller
 * runs after answering: the answer never waits for a write.
 */
const touching = new WeakMap<Db, Set<string>>();

export function liveSession(
  db: Db,
  s: Session,
  member: TenantUser | null,
  now: number,
  p: SessionPolicy,
): { session: Session; touch: (() => Promise<unknown>) | null } | null {
  // Rows written before the absolute lifetime existed count from their creation.
  const authenticatedAt = s.authenticatedAt ?? s.createdAt;
  if (now >= absoluteExpiry(s.remember, authenticatedAt, p)) return null;
  if (now - s.lastActivityAt < TOUCH_INTERVAL_MS) return { session: s, touch: null };
  const expiresAt = s.remember ? s.expiresAt : sessionExpiry(false, now, authenticatedAt, p);
  const touch = async () => {
    // One touch of a session at a time in this process: while one waits for the file's lock (a
    // large import's switch holds it for seconds), requests behind it add no writes of the row.
    const root = rootOf(db);
    let inFlight = touching.get(root);
    if (!inFlight) touching.set(root, (inFlight = new Set()));
    if (inFlight.has(s.id)) return;
    inFlight.add(s.id);
    try {
      const session = db.update(sessions).set({ lastActivityAt: now, expiresAt }).where(eq(sessions.id, s.id));
      await (member ? db.batch([session, db.update(tenantUsers).set({ lastActiveAt: now }).where(eq(tenantUsers.id, member.id))]) : session);
    } finally {
      inFlight.delete(s.id);
    }
  };
  return { session: { ...s, lastActivityAt: now, expiresAt }, touch };
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, id));
}
