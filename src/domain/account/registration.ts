// Invitation registration and email verification by signed links (spec 01 "Registration and
// verification links"). A link is `<origin><base>/register/<email>?expires=E&id=ID&signature=S`
// (or /verify/...), S = HMAC over the URL without `signature`. Each link has a row (by the hash
// of its signature), so it works once.
import { and, eq, isNull } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { emailLinks, users, type Tenant, type User } from '../../db/schema';
import { AppError } from '../errors';
import { auditInsert } from '../audit/log';
import { sendMail } from '../mail/messages';
import { reserve } from '../security/limiter';
import { sha256Hex } from '../security/tokens';
import { publicOrigin } from '../tenants/hosts';
import { activeOnly, listMemberships } from '../tenants/memberships';
import { applicablePolicy, passwordColumns } from './password-compliance';
import { sign, signatureMatches } from './signed-links';
import { assertNewPassword } from './password-rules';

export type LinkPurpose = 'register' | 'verify';
export const INVITATION_TTL_DAYS = 7;
export const VERIFICATION_TTL_DAYS = 3;

export function unsignedLink(origin: string, basePath: string, purpose: LinkPurpose, email: string, userId: number, expires: number): string {
  return `${origin}${basePath}/${purpose}/${encodeURIComponent(email)}?expires=${expires}&id=${userId}`;
}

/**
 * Creates the link row and returns the signed URL (expires in seconds since the epoch). A link
 * issued again within the same second is the same URL, so its row already exists and is reused.
 */
export async function issueLink(deps: Deps, user: User, tenant: Tenant | null, purpose: LinkPurpose, days: number): Promise<string> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const expires = Math.floor(now / 1000) + days * 86_400;
  const unsigned = unsignedLink(publicOrigin(config.PUBLIC_URL, tenant), config.BASE_PATH, purpose, user.email, user.id, expires);
  const signature = sign(config.LINK_SIGNING_KEY, unsigned);
  await db.insert(emailLinks).values({
    userId: user.id,
    tenantId: tenant?.id ?? null,
    purpose,
    email: user.email,
    signatureHash: sha256Hex(signature),
    expiresAt: expires * 1000,
    createdAt: now,
  }).onConflictDoNothing({ target: emailLinks.signatureHash });
  return `${unsigned}&signature=${signature}`;
}

/** Sends the invitation mail of a tenant member who has not registered yet. */
export async function sendInvitation(deps: Deps, user: User, tenant: Tenant): Promise<void> {
  const url = await issueLink(deps, user, tenant, 'register', INVITATION_TTL_DAYS);
  await sendMail(deps, user, 'invitation', { url, name: user.name, tenant: tenant.name, days: INVITATION_TTL_DAYS }, tenant.id);
}

export interface LinkQuery {
  expires: string;
  signature: string;
  email?: string;
}

/**
 * Checks a link presented to `origin` for user `id`: signature (current or previous key), expiry,
 * and that the row is unused. Errors: "Invalid signature.", link-expired, account-deleted.
 */
async function checkLink(deps: Deps, origin: string, purpose: LinkPurpose, id: number, q: LinkQuery) {
  const { db, clock, config } = deps;
  const user = await db.select().from(users).where(eq(users.id, id)).get();
  const expires = Number(q.expires);
  // The signature first: nothing about the account (not even that it is gone) is told to a link
  // we did not sign. A deleted account's link is checked against the address it was made for.
  const email = user?.email ?? q.email?.toLowerCase();
  const unsigned = email === undefined ? null : unsignedLink(origin, config.BASE_PATH, purpose, email, id, expires);
  if (!unsigned || !Number.isSafeInteger(expires) || !signatureMatches([config.LINK_SIGNING_KEY, config.LINK_SIGNING_KEY_PREVIOUS], unsigned, q.signature)) {
    throw new AppError('Invalid signature.');
  }
  if (!user) throw new AppError('account-deleted');
  if (expires * 1000 <= clock.now()) throw new AppError('link-expired');
  const link = await db
    .select()
    .from(emailLinks)
    .where(and(eq(emailLinks.signatureHash, sha256Hex(q.signature)), eq(emailLinks.userId, user.id), eq(emailLinks.purpose, purpose)))
    .get();
  if (!link) throw new AppError('Invalid signature.');
  return { user, link };
}

async function useLink(deps: Deps, linkId: number): Promise<boolean> {
  const done = await deps.db
    .update(emailLinks)
    .set({ usedAt: deps.clock.now() })
    .where(and(eq(emailLinks.id, linkId), isNull(emailLinks.usedAt)))
    .returning({ id: emailLinks.id });
  return done.length === 1;
}

/** POST users/register/{id}: sets the first password; the invitation proves the address. */
export async function register(
  deps: Deps,
  p: { origin: string; id: number; query: LinkQuery; password: string; confirmation: string; hostTenant: Tenant | null; ip: string | null },
): Promise<User> {
  const { db, clock, passwords } = deps;
  const { user, link } = await checkLink(deps, p.origin, 'register', p.id, p.query);
  if (user.passwordHash) throw new AppError('already-registered');
  const memberships = activeOnly(await listMemberships(db, user.id));
  const tenant = memberships.find((m) => m.tenant.id === link.tenantId)?.tenant;
  if (link.tenantId !== null && !tenant) throw new AppError('account-deleted');
  if (link.usedAt !== null) throw new AppError('already-registered');
  const policy = applicablePolicy(tenant ?? p.hostTenant, memberships.map((m) => m.tenant));
  assertNewPassword({ password: p.password, confirmation: p.confirmation, policy, email: user.email, field: 'password', confirmationField: 'password_confirmation' });
  if (!(await useLink(deps, link.id))) throw new AppError('already-registered');
  const now = clock.now();
  const columns = await passwordColumns(passwords, p.password, user.email, now);
  await db.batch([
    db.update(users).set({ ...columns, emailVerifiedAt: user.emailVerifiedAt ?? now }).where(and(eq(users.id, user.id), isNull(users.passwordHash))),
    auditInsert(db, { tenantId: link.tenantId, actorUserId: user.id, action: 'user.registered', ipAddress: p.ip }, now),
  ]);
  return { ...user, ...columns, emailVerifiedAt: user.emailVerifiedAt ?? now };
}

/** POST users/verify/{id}: confirms the address. */
export async function verifyEmail(deps: Deps, p: { origin: string; id: number; query: LinkQuery; ip: string | null }): Promise<void> {
  const { db, clock } = deps;
  const { user, link } = await checkLink(deps, p.origin, 'verify', p.id, p.query);
  if (user.emailVerifiedAt !== null || link.usedAt !== null || link.email !== user.email) throw new AppError('already-verified');
  if (!(await useLink(deps, link.id))) throw new AppError('already-verified');
  const now = clock.now();
  await db.batch([
    db.update(users).set({ emailVerifiedAt: now, updatedAt: now }).where(eq(users.id, user.id)),
    auditInsert(db, { tenantId: link.tenantId, actorUserId: user.id, action: 'user.email_verified', ipAddress: p.ip }, now),
  ]);
}

/** POST verification-mail/{id}: the signed-in user asks for a new verification mail (once a minute). */
export async function sendVerificationMail(deps: Deps, user: User, hostTenant: Tenant | null): Promise<void> {
  if (user.emailVerifiedAt !== null) throw new AppError('already-verified');
  const limit = { key: `verification-mail:${user.id}`, max: 1, windowMs: 60_000 };
  await reserve(deps.db, [limit], deps.clock.now());
  const url = await issueLink(deps, user, hostTenant, 'verify', VERIFICATION_TTL_DAYS);
  await sendMail(deps, user, 'verification', { url, name: user.name, email: user.email, days: VERIFICATION_TTL_DAYS }, hostTenant?.id ?? null);
}

/**
 * What the registration page says at once, before a password is typed (decision 0033): the
 * refusal `register` would give for this link (a bad signature, expired, the account gone or
 * already registered), or null when the link can be used. Reads only; the link stays unused.
 */
export async function registrationLinkProblem(
  deps: Deps,
  p: { origin: string; id: number; query: LinkQuery },
): Promise<'Invalid signature.' | 'link-expired' | 'account-deleted' | 'already-registered' | null> {
  try {
    const { user, link } = await checkLink(deps, p.origin, 'register', p.id, p.query);
    if (user.passwordHash || link.usedAt !== null) return 'already-registered';
    if (link.tenantId !== null && !activeOnly(await listMemberships(deps.db, user.id)).some((m) => m.tenant.id === link.tenantId)) return 'account-deleted';
    return null;
  } catch (e) {
    if (e instanceof AppError && (e.code === 'Invalid signature.' || e.code === 'link-expired' || e.code === 'account-deleted')) return e.code;
    throw e;
  }
}
