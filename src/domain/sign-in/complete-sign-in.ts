// The one post-authentication step (docs/decisions/0026-one-way-in-and-reserved-limits.md).
// Every way in (password, reset, registration, the codes that finish a pending login, SSO and
// hand-off) proves a first factor, then calls completeSignIn, which alone decides what is still
// owed: membership, deactivation, the address allowlist, SSO members to their IdP, the person's
// second factor, the new-device emailed code and the tenant's 2FA enforcement; then it writes the
// session. A rule written here holds for every way in, and no way in can skip one.
import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../deps';
import type { BatchRead as BatchItem } from '../../db/client';
import { tenantUsers, whitelistedIps, type Session, type Tenant, type User } from '../../db/schema';
import { AppError } from '../errors';
import { auditInsert, audit } from '../audit/log';
import { isAllowed } from '../security/ip-match';
import { activeOnly, listMemberships, type Membership } from '../tenants/memberships';
import type { FreshTenant } from '../tenants/hosts';
import { enforcement, isRememberedDevice, mustSetUpTwofa, startEnableChallenge, startOtpChallenge } from '../twofa/login';
import { isKnownDevice, rememberDeviceStatement, startAdditionalChallenge } from './new-device-code';
import type { PasswordCompliance } from '../account/password-compliance';
import { prepareSession, type NewSession } from './sessions';
import { scopedMemberships, sessionScope, type SessionScope } from './scope';
import { browserTokenFor, knownBrowserValue, type BrowserCookies } from './known-browser';
import { deviceFingerprints, type Fingerprints, type ClientInfo } from './client';
import { createChallenge } from './pending-logins';
import { hasPasskey } from '../passkeys/credentials';
import { passkeyRequired } from '../passkeys/policy';

export type EntryVerdict = { kind: 'ok' } | { kind: 'sso'; initialSubdomain: string };

/** Whether the host's address allowlist admits this client (true on hosts without one). */
export async function hostAdmits(deps: Deps, hostTenant: FreshTenant | null, ip: string | null): Promise<boolean> {
  if (!hostTenant?.isIpRestrictionEnabled) return true;
  const allow = await deps.db.select().from(whitelistedIps).where(eq(whitelistedIps.tenantId, hostTenant.id));
  return isAllowed(ip, allow);
}

async function refusal(deps: Deps, user: User | null, hostTenant: Tenant | null, client: ClientInfo, code: 'not-a-member' | 'deactivated' | 'restricted-ip') {
  await audit(
    deps.db,
    { tenantId: hostTenant?.id ?? null, actorUserId: user?.id ?? null, action: `login.refused.${code}`, ipAddress: client.ip, userAgent: client.userAgent },
    deps.clock.now(),
  );
  // A refused address is named back to the person (issue 27 part 7): it is their own, and it is
  // what their administrator needs to add.
  return code === 'restricted-ip' && client.ip ? new AppError(code, { ipAddress: client.ip }) : new AppError(code);
}

/**
 * A host that restricts addresses refuses a client outside its allowlist before any password or
 * code is checked, so the answer says nothing about the credentials.
 */
export async function assertHostAdmits(deps: Deps, hostTenant: FreshTenant | null, client: ClientInfo): Promise<void> {
  if (!(await hostAdmits(deps, hostTenant, client.ip))) throw await refusal(deps, null, hostTenant, client, 'restricted-ip');
}

/**
 * Membership rules of spec 01 section 8 for entering `hostTenant` (null = main domain): members
 * only (tenant managers may enter any tenant), not deactivated, from an allowed address when the
 * tenant restricts addresses; SSO members are sent to their IdP. Throws the spec's code words.
 */
export async function checkEntry(
  deps: Deps,
  user: User,
  memberships: Membership[],
  hostTenant: FreshTenant | null,
  client: ClientInfo,
  opts: { viaSso?: boolean; hostAdmitted?: boolean } = {},
): Promise<EntryVerdict> {
  const refuse = (code: 'not-a-member' | 'deactivated' | 'restricted-ip') => refusal(deps, user, hostTenant, client, code);
  if (!hostTenant) {
    if (user.isTenantManager) return { kind: 'ok' };
    if (memberships.length === 0) throw await refuse('not-a-member');
    if (activeOnly(memberships).length === 0) throw await refuse('deactivated');
    return { kind: 'ok' };
  }
  const m = memberships.find((x) => x.tenant.id === hostTenant.id);
  if (!m) {
    if (user.isTenantManager) return { kind: 'ok' };
    throw await refuse('not-a-member');
  }
  if (m.member.deactivatedAt !== null) throw await refuse('deactivated');
  // Coming back from the IdP the SSO redirect is done; the address rule still applies.
  if (!opts.viaSso && hostTenant.isSsoEnabled && m.member.isSsoEnabled) return { kind: 'sso', initialSubdomain: hostTenant.initialSubdomain };
  if (!opts.hostAdmitted && !(await hostAdmits(deps, hostTenant, client.ip))) throw await refuse('restricted-ip');
  return { kind: 'ok' };
}

/** How the first factor was proven. */
export type WayIn = 'password' | 'reset' | 'registration' | 'sso' | 'handoff' | 'passkey';

export interface SignInRequest {
  user: User;
  via: WayIn;
  /** The host's tenant as this request read it: a cached copy cannot decide (decision 0035). */
  hostTenant: FreshTenant | null;
  client: ClientInfo;
  remember: boolean;
  /** password_compliance taken when the password was typed (null where none was). */
  compliance: PasswordCompliance | null;
  /** The browser's device cookies (the new-device rule and the lock-outs' own bucket; remembered
   *  as known on success). None for SSO: an IdP's word never makes a browser the person's. */
  browser?: BrowserCookies;
  /** A "remember this device" cookie from an earlier one-time code. */
  rememberedDeviceToken?: string;
  /** What this attempt has proven beyond the first factor (a finished pending login): `passkey`
   *  a passkey was the second step; `passkeyEnrolled` the person added the passkey a tenant requires. */
  passed?: { secondFactor?: boolean; emailCode?: boolean; setup?: 'enabled' | 'skipped'; passkey?: boolean; passkeyEnrolled?: boolean };
  /** The passkey used (`via: 'passkey'`, or as the second step), for the audit entry. */
  passkeyId?: string;
  /** When the person proved who they are, if earlier than now (a finished pending login). */
  authenticatedAt?: number;
  /** Hand-off: the source session, re-read live when the code is exchanged. */
  source?: Session;
  /** SSO: what single logout needs. */
  saml?: NewSession['saml'];
  /** The person's memberships, when the caller has just read them after the first factor (the
   *  password login, for its policy): read once per sign-in instead of again here. */
  memberships?: Membership[];
  /** What the way in already read with its own batch (the password login), so the rules below
   *  ask the database nothing more: whether this browser is a known device and a remembered one,
   *  and whether the host's allowlist already admitted the client in this request. */
  known?: { device: boolean; rememberedDevice: boolean; hostAdmitted: boolean };
  /** The way in's own writes after its first factor (its limits' clear and refund, a rehash):
   *  committed in the session's batch, or before any other outcome. */
  writes?: BatchItem[];
}

export interface SignIn {
  token: string;
  expiresAt: number;
  remember: boolean;
}

export type SignInOutcome =
  | {
      kind: 'session';
      user: User;
      memberships: Membership[];
      scope: SessionScope;
      session: SignIn;
      compliance: PasswordCompliance | null;
      /** The portal-wide known-browser cookie to set (known-browser.ts), when a browser signed in. */
      knownBrowser: string | null;
    }
  | { kind: 'challenge'; message: 'enter-otp' | 'enable-twofa' | 'enter-additional-challenge' | 'enable-passkey'; challengeToken: string }
  | { kind: 'redirect-to-sso'; initialSubdomain: string };

const AUDIT_ACTION: Record<WayIn, string> = {
  password: 'login.succeeded',
  reset: 'login.succeeded',
  registration: 'login.succeeded',
  sso: 'login.sso',
  handoff: 'login.handoff',
  passkey: 'login.passkey',
};

/**
 * Decides what a person who has proven a first factor still owes before entering `hostTenant`,
 * and either starts that step (a pending login) or creates the session. Refusals throw the
 * spec's code words (not-a-member, deactivated, restricted-ip).
 */
export async function completeSignIn(deps: Deps, r: SignInRequest): Promise<SignInOutcome> {
  // startSession takes the way in's writes into its batch; on every other outcome (a pending
  // step, a refusal, SSO) they are written here, after the decision.
  const writes = [...(r.writes ?? [])];
  try {
    return await decide(deps, r, writes);
  } finally {
    if (writes.length > 0) await deps.db.batch(writes as [BatchItem, ...BatchItem[]]);
  }
}

async function decide(deps: Deps, r: SignInRequest, writes: BatchItem[]): Promise<SignInOutcome> {
  const { db, clock } = deps;
  const now = clock.now();
  const { user, hostTenant, client } = r;
  const memberships = r.memberships ?? (await listMemberships(db, user.id));
  const entry = await checkEntry(deps, user, memberships, hostTenant, client, { viaSso: r.via === 'sso', hostAdmitted: r.known?.hostAdmitted });
  if (entry.kind === 'sso') return { kind: 'redirect-to-sso', initialSubdomain: entry.initialSubdomain };

  const passed = r.passed ?? {};
  const source = r.via === 'handoff' ? r.source : undefined;
  if (r.via === 'handoff' && !source) throw new AppError('handoff-invalid');
  const authenticatedAt = source ? (source.authenticatedAt ?? source.createdAt) : (r.authenticatedAt ?? now);
  // An IdP's word is good for its own tenant only, however the session moves afterwards.
  const ssoTenantId = r.via === 'sso' ? hostTenant!.id : (source?.ssoTenantId ?? null);
  // This browser as the account knows it on any host of the portal (known-browser.ts).
  const browserToken = r.browser ? browserTokenFor(deps.config.DATA_ENCRYPTION_KEY, user.id, r.browser) : null;
  const fingerprints = browserToken ? deviceFingerprints(browserToken, client.ip) : null;
  // A passkey (user-verified, bound to this portal's domain) is two factors and phishing-resistant:
  // no code, no emailed new-device code and no 2FA setup after it, here or after a hand-off of its
  // session (decision 0039).
  const passkeyProven = r.via === 'passkey' || Boolean(passed.passkey) || Boolean(source?.passkeyVerified);
  // SSO: the IdP authenticated the person (with its own MFA); portal 2FA does not apply.
  let twofaPassed = r.via === 'sso' || passkeyProven || Boolean(passed.secondFactor) || Boolean(source?.twofaPassed);
  const twofaSkipped = passed.setup === 'skipped' || Boolean(source?.twofaSkipped);

  if (r.via !== 'sso') {
    const pending = async (kind: 'otp' | 'enable_twofa' | 'additional_challenge' | 'enrol_passkey') => {
      // A session an IdP vouched for never turns into a password login's pending steps.
      if (ssoTenantId !== null || !fingerprints) throw new AppError('handoff-invalid');
      const p = { user, tenantId: hostTenant?.id ?? null, remember: r.remember, compliance: r.compliance, fingerprints, client, authenticatedAt };
      if (kind === 'otp') return { kind: 'challenge', message: 'enter-otp', challengeToken: await startOtpChallenge(deps, p) } as const;
      if (kind === 'enable_twofa') return { kind: 'challenge', message: 'enable-twofa', challengeToken: await startEnableChallenge(deps, p) } as const;
      if (kind === 'enrol_passkey') return { kind: 'challenge', message: 'enable-passkey', challengeToken: await createChallenge(deps, { ...p, kind }) } as const;
      return { kind: 'challenge', message: 'enter-additional-challenge', challengeToken: await startAdditionalChallenge(deps, p) } as const;
    };
    if (user.twofaMethod) {
      // A device remembered after an earlier code skips the code (30 days, revocable).
      if (!twofaPassed) twofaPassed = r.known ? r.known.rememberedDevice : await isRememberedDevice(db, user.id, r.rememberedDeviceToken, now);
      if (!twofaPassed) return pending('otp');
    } else if (!passkeyProven) {
      // The emailed code comes first: someone holding only the password must not get as far as
      // binding an authenticator of their own. A reset or an invitation link proved the mailbox.
      const mailboxProven = passed.emailCode || r.via === 'reset' || r.via === 'registration' || r.via === 'handoff';
      if (!mailboxProven && fingerprints && !(r.known ? r.known.device : await isKnownDevice(db, user.id, fingerprints))) return pending('additional_challenge');
    }
    // A tenant that requires passkeys (decision 0039): a person it covers who has none adds one
    // now, after their own factors, as the 2FA enforcement asks for a setup. The passkey is two
    // factors, so it stands for the 2FA setup too.
    const enrolled = passkeyProven || Boolean(passed.passkeyEnrolled);
    if (!enrolled && passkeyRequired(hostTenant, memberships) && !(await hasPasskey(db, user.id))) return pending('enrol_passkey');
    if (!passed.setup && mustSetUpTwofa({ twofaMethod: user.twofaMethod, passkey: enrolled }, enforcement(hostTenant, memberships), twofaSkipped)) return pending('enable_twofa');
  }

  const session = await startSession(deps, {
    user,
    hostTenant,
    remember: r.remember,
    twofaPassed,
    twofaSkipped,
    authMethod: r.via === 'sso' ? 'sso' : r.via === 'handoff' ? 'handoff' : r.via === 'passkey' ? 'passkey' : 'password',
    passkeyVerified: passkeyProven,
    auditDetails: r.passkeyId ? { passkey: r.passkeyId } : undefined,
    authenticatedAt,
    ssoTenantId,
    client,
    action: AUDIT_ACTION[r.via],
    saml: r.saml,
    // The browser becomes a known device in the same batch as its session.
    knownDevice: fingerprints,
    writes: writes.splice(0),
  });
  // What the new session may see follows whom it speaks for (decision 0035).
  const scope = sessionScope({ ssoTenantId });
  const knownBrowser = browserToken ? knownBrowserValue(deps.config.DATA_ENCRYPTION_KEY, user.id, browserToken) : null;
  return { kind: 'session', user, memberships: scopedMemberships(scope, memberships), scope, session, compliance: r.compliance, knownBrowser };
}

/**
 * Creates the session row, the audit entry, the membership's last activity and the known device
 * in one batch. Only completeSignIn calls it.
 */
async function startSession(
  deps: Deps,
  p: {
    user: User;
    hostTenant: Tenant | null;
    remember: boolean;
    twofaPassed: boolean;
    twofaSkipped: boolean;
    authMethod: NewSession['authMethod'];
    passkeyVerified: boolean;
    auditDetails?: Record<string, unknown>;
    authenticatedAt: number;
    ssoTenantId: number | null;
    client: ClientInfo;
    action: string;
    saml?: NewSession['saml'];
    knownDevice: Fingerprints | null;
    writes: BatchItem[];
  },
): Promise<SignIn> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const tenantId = p.hostTenant?.id ?? null;
  const session = prepareSession(
    db,
    {
      userId: p.user.id,
      tenantId,
      remember: p.remember,
      twofaPassed: p.twofaPassed,
      twofaSkipped: p.twofaSkipped,
      passkeyVerified: p.passkeyVerified,
      authMethod: p.authMethod,
      authenticatedAt: p.authenticatedAt,
      ssoTenantId: p.ssoTenantId,
      userAgent: p.client.userAgent,
      ip: p.client.ip,
      geo: p.client.geo,
      saml: p.saml,
    },
    now,
    { rememberDays: config.SESSION_REMEMBER_DAYS, idleMinutes: config.SESSION_IDLE_MINUTES, maxDays: config.SESSION_MAX_DAYS },
  );
  const audited = auditInsert(db, { tenantId, actorUserId: p.user.id, action: p.action, ipAddress: p.client.ip, userAgent: p.client.userAgent, details: p.auditDetails }, now);
  await db.batch([
    session.insert,
    ...p.writes,
    audited,
    ...(tenantId !== null ? [db.update(tenantUsers).set({ lastActiveAt: now }).where(and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.userId, p.user.id)))] : []),
    ...(p.knownDevice ? [rememberDeviceStatement(db, p.user.id, p.knownDevice, now)] : []),
  ]);
  return { token: session.token, expiresAt: session.expiresAt, remember: p.remember };
}
