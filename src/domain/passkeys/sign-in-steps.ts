// The passkey steps of a pending login (decision 0039), bound to the pending login of this browser
// (its challenge cookie) and to this host:
//  - the second step: after the password, one of the person's passkeys instead of the one-time
//    code (the same guess budget as the codes: 5 per account per 15 minutes, reserved first);
//  - the enrolment a tenant's policy requires: the person, who has proven their password and their
//    own second factor (or the emailed new-device code), adds a passkey before the session.
// Both end the pending login once (compare-and-set) and hand what it proved to completeSignIn.
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { eq } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { users } from '../../db/schema';
import { AppError } from '../errors';
import { audit } from '../audit/log';
import { clear, reserve } from '../security/limiter';
import { codeGuessLimit, completeChallenge, findChallenge, type ChallengeKind } from '../sign-in/pending-logins';
import { finishedLogin, LOCK_WINDOW_MS, MAX_FAILURES } from '../twofa/login';
import { AssertionRefused, checkAssertion, ownPasskeys, requestOptions } from './authentication';
import type { PasskeyView } from './credentials';
import { addPasskey, creationOptions } from './registration';

export interface PendingStep {
  /** The challenge cookie of the pending login. */
  token: string | undefined;
  hostTenantId: number | null;
  browser: string;
  /** The request's own origin. */
  origin: string;
}

async function pending(deps: Deps, s: PendingStep, kind: ChallengeKind) {
  const c = await findChallenge(deps, s.token, s.hostTenantId, kind);
  if (!c) throw new AppError('no-pending-login');
  const user = await deps.db.select().from(users).where(eq(users.id, c.userId)).get();
  if (!user) throw new AppError('no-pending-login');
  return { c, user };
}

/** POST passkeys/second-factor/options: the person's passkeys may answer (no-passkey without one). */
export async function secondStepOptions(deps: Deps, s: PendingStep): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { c, user } = await pending(deps, s, 'otp');
  const allow = await ownPasskeys(deps, user.id);
  return requestOptions(deps, { purpose: 'second-factor', browser: s.browser, origin: s.origin, tenantId: s.hostTenantId, userId: user.id, loginChallengeId: c.id }, allow);
}

/** POST passkeys/second-factor/verify: the passkey answers for the one-time code. */
export async function verifySecondStep(deps: Deps, s: PendingStep, response: AuthenticationResponseJSON, origin: string) {
  const { c, user } = await pending(deps, s, 'otp');
  const limit = await codeGuessLimit(deps, c, '2fa-login', MAX_FAILURES, LOCK_WINDOW_MS);
  await reserve(deps.db, [limit], deps.clock.now(), 'locked-out');
  let passkeyId: string;
  try {
    passkeyId = (
      await checkAssertion(deps, response, { origin, purpose: 'second-factor', browser: s.browser, tenantId: s.hostTenantId, userId: user.id, bound: (x) => x.loginChallengeId === c.id })
    ).id;
  } catch (e) {
    if (!(e instanceof AssertionRefused)) throw e;
    await audit(deps.db, { tenantId: c.tenantId, actorUserId: user.id, action: 'login.passkey_failed', details: { reason: e.reason, step: 'second-factor' } }, deps.clock.now());
    throw new AppError('passkey-invalid');
  }
  if (!(await completeChallenge(deps, c))) throw new AppError('no-pending-login');
  await clear(deps.db, [limit]);
  return { ...finishedLogin(c, user), passkeyId };
}

/** POST passkeys/enrolment/options: the creation options for the person of the pending enrolment. */
export async function enrolmentOptions(deps: Deps, s: PendingStep): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { c, user } = await pending(deps, s, 'enrol_passkey');
  return creationOptions(deps, user, { purpose: 'enrol', browser: s.browser, origin: s.origin, tenantId: s.hostTenantId, loginChallengeId: c.id });
}

/** POST passkeys/enrolment/verify: stores the new passkey and ends the pending login. */
export async function completeEnrolment(
  deps: Deps,
  s: PendingStep,
  response: RegistrationResponseJSON,
  ctx: { origin: string; ip: string | null; userAgent: string | null },
): Promise<ReturnType<typeof finishedLogin> & { passkey: PasskeyView }> {
  const { c, user } = await pending(deps, s, 'enrol_passkey');
  const passkey = await addPasskey(
    deps,
    { user, origin: ctx.origin, browser: s.browser, tenantId: s.hostTenantId, purpose: 'enrol', bound: (x) => x.loginChallengeId === c.id, ip: ctx.ip, userAgent: ctx.userAgent },
    response,
  );
  if (!(await completeChallenge(deps, c))) throw new AppError('no-pending-login');
  return { ...finishedLogin(c, user), passkey };
}
