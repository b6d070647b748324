// Session devices (spec 01 "Session devices"): the user's sessions on every host, the current
// one apart; revoking one deletes its row, so its next request is unauthenticated at once. A
// session a tenant's IdP made sees and ends only the sessions on that tenant's host, and never
// the remembered two-factor devices, which are the person's (decision 0035).
import { and, desc, eq, gt, ne } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { prepared, read, readOne, type Placeholders } from '../../db/client';
import { rememberedDevices, sessions, type Session } from '../../db/schema';

type RememberedDevice = typeof rememberedDevices.$inferSelect;
import { AppError } from '../errors';
import { sha256Hex } from '../security/tokens';
import { audit } from '../audit/log';
import { assertPersonScope, sessionsInScope, type SessionScope } from '../sign-in/scope';

export function deviceView(s: Session) {
  return {
    id: s.id,
    agent: { device: s.device, os: s.os, browser: s.browser, isNextaMeishiApp: s.isNextaMeishiApp },
    location: { countryCode: s.countryCode, city: s.city, state: s.region, country: s.country },
    ipAddress: s.ipAddress,
    lastActivity: new Date(s.lastActivityAt).toISOString(),
  };
}

/**
 * Devices that skip the one-time code (remembered after a code), listed and revocable.
 * `thisBrowser` marks the entry whose token is this browser's remember cookie.
 */
function rememberedDevicesQuery(deps: Deps, userId: number) {
  return deps.db
    .select()
    .from(rememberedDevices)
    .where(and(eq(rememberedDevices.userId, userId), gt(rememberedDevices.expiresAt, deps.clock.now())))
    .orderBy(desc(rememberedDevices.createdAt));
}

function rememberedView(rows: RememberedDevice[], browserToken?: string) {
  const browserHash = browserToken ? sha256Hex(browserToken) : null;
  return rows.map((r) => ({
    id: r.id,
    agent: { device: r.device, os: r.os, browser: r.browser },
    rememberedAt: new Date(r.createdAt).toISOString(),
    expiresAt: new Date(r.expiresAt).toISOString(),
    thisBrowser: browserHash !== null && r.tokenHash === browserHash,
  }));
}

export async function listRememberedDevices(deps: Deps, userId: number, browserToken?: string) {
  return rememberedView(await rememberedDevicesQuery(deps, userId), browserToken);
}

export async function forgetRememberedDevice(deps: Deps, current: Session, scope: SessionScope, id: string, ip: string | null): Promise<void> {
  assertPersonScope(scope);
  const gone = await deps.db
    .delete(rememberedDevices)
    .where(and(eq(rememberedDevices.id, id), eq(rememberedDevices.userId, current.userId)))
    .returning({ id: rememberedDevices.id });
  if (gone.length === 0) throw new AppError('not-found');
  await audit(deps.db, { tenantId: current.tenantId, actorUserId: current.userId, action: 'twofa.remembered_device_forgotten', targetType: 'remembered_device', targetId: id, ipAddress: ip }, deps.clock.now());
}

// Built once (issue 23): the other sessions of a person, or of a tenant's IdP-made session.
const otherSessions = {
  person: prepared((db, p: Placeholders<{ userId: number; current: string; now: number }>) =>
    db.select().from(sessions).where(and(eq(sessions.userId, p.userId), ne(sessions.id, p.current), gt(sessions.expiresAt, p.now))).orderBy(desc(sessions.lastActivityAt)),
  ),
  tenant: prepared((db, p: Placeholders<{ userId: number; current: string; now: number; tenantId: number }>) =>
    db.select().from(sessions).where(and(eq(sessions.userId, p.userId), eq(sessions.tenantId, p.tenantId), ne(sessions.id, p.current), gt(sessions.expiresAt, p.now))).orderBy(desc(sessions.lastActivityAt)),
  ),
};
const rememberedOf = prepared((db, p: Placeholders<{ userId: number; now: number }>) =>
  db.select().from(rememberedDevices).where(and(eq(rememberedDevices.userId, p.userId), gt(rememberedDevices.expiresAt, p.now))).orderBy(desc(rememberedDevices.createdAt)),
);

/** The session devices as a batchable read (my-account reads them with its other data). */
export function devicesRead(deps: Deps, current: Session, scope: SessionScope, rememberToken?: string) {
  const base = { userId: current.userId, current: current.id, now: deps.clock.now() };
  return read(
    {
      // The same rows as sessionsInScope selects (the revocations below use it).
      others: scope.kind === 'person' ? otherSessions.person(deps.db, base) : otherSessions.tenant(deps.db, { ...base, tenantId: scope.tenantId }),
      remembered: scope.kind === 'person' ? rememberedOf(deps.db, { userId: current.userId, now: base.now }) : undefined,
    },
    ({ others, remembered }) => ({
      scope: scope.kind,
      currentSession: deviceView(current),
      otherSessions: others.map(deviceView),
      rememberedDevices: remembered ? rememberedView(remembered, rememberToken) : [],
    }),
  );
}

export function listDevices(deps: Deps, current: Session, scope: SessionScope, rememberToken?: string) {
  return readOne(deps.db, devicesRead(deps, current, scope, rememberToken));
}

/**
 * Another user's session id is indistinguishable from a missing one: 404. The person's own
 * session outside this session's scope: `sign-in-required`.
 */
export async function logoutDevice(deps: Deps, current: Session, scope: SessionScope, id: string, ip: string | null): Promise<void> {
  const gone = await deps.db
    .delete(sessions)
    .where(and(eq(sessions.id, id), sessionsInScope(scope, current.userId)))
    .returning({ id: sessions.id });
  if (gone.length === 0) {
    const mine = scope.kind === 'tenant' && (await deps.db.select({ id: sessions.id }).from(sessions).where(and(eq(sessions.id, id), eq(sessions.userId, current.userId))).get());
    throw mine ? new AppError('sign-in-required') : new AppError('not-found');
  }
  await audit(deps.db, { tenantId: current.tenantId, actorUserId: current.userId, action: 'session.revoked', targetType: 'session', targetId: id, ipAddress: ip }, deps.clock.now());
}

export async function logoutOtherDevices(deps: Deps, current: Session, scope: SessionScope, ip: string | null): Promise<number> {
  const gone = await deps.db
    .delete(sessions)
    .where(and(sessionsInScope(scope, current.userId), ne(sessions.id, current.id)))
    .returning({ id: sessions.id });
  await audit(deps.db, { tenantId: current.tenantId, actorUserId: current.userId, action: 'session.revoked_others', details: { count: gone.length }, ipAddress: ip }, deps.clock.now());
  return gone.length;
}
