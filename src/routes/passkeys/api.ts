// Passkey calls (decision 0039): sign-in (public), the steps of a pending login (the challenge
// cookie), the person's own passkeys (a session the person made: `person` in the catalog), and a
// tenant admin's removal of a member's passkeys. Every ceremony has an options call that makes
// and stores its challenge, and a call that checks the browser's answer.
import { Hono, type MiddlewareHandler } from 'hono';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { removeMemberPasskeys } from '../../domain/passkeys/admin';
import { ownPasskeys, requestOptions, reverifyWithPasskey, signInWithPasskey } from '../../domain/passkeys/authentication';
import { listPasskeys, passkeyView, removePasskey, renamePasskey, type Actor } from '../../domain/passkeys/credentials';
import { addPasskey, creationOptions } from '../../domain/passkeys/registration';
import { completeEnrolment, enrolmentOptions, secondStepOptions, verifySecondStep, type PendingStep } from '../../domain/passkeys/sign-in-steps';
import { completeSignIn } from '../../domain/sign-in/complete-sign-in';
import { AppError } from '../../domain/errors';
import { assertRecentPassword, verifyPasswordForSetup } from '../../domain/twofa/setup';
import {
  passkeyAssertionSchema,
  passkeyRegistrationSchema,
  passkeyRemoveSchema,
  passkeyRenameSchema,
  passkeySignInSchema,
} from '../../shared/passkeys/schemas';
import { browserCookies, challengeToken, clearChallengeCookie, rememberedDeviceCookie } from '../http/cookies';
import { decidingTenant, type AppEnv, type AuthedEnv, type Ctx, type SignedInCtx } from '../http/env';
import { errorAnswer } from '../http/errors';
import { idParam } from '../http/params';
import { readJson } from '../http/validate';
import { actorOf } from '../http/actor';
import { isSsoUser, requireAccess, requireSession } from '../middleware/guards';
import { limitPerAddress } from '../middleware/rate-limit';
import { answerOutcome, clientInfo } from '../sign-in/http';
import { browserToken, requestOrigin } from './http';

export const passkeysApi = new Hono<AppEnv>();

// The JSON forms the schemas check have the library's shapes; the library checks what they say.
const asAssertion = (r: unknown) => r as AuthenticationResponseJSON;
const asRegistration = (r: unknown) => r as RegistrationResponseJSON;

// ---- Sign-in: any host, nobody signed in yet -----------------------------------------------------

/** Options are cheap but each is a row: 120 a minute per address (every login page view asks for
 *  one for the autofill, and an office shares one address). */
const optionsLimit = limitPerAddress('passkey-options', 120, 60_000);

passkeysApi.post('/passkeys/sign-in/options', optionsLimit, async (c) =>
  c.json(await requestOptions(c.get('deps'), { purpose: 'sign-in', browser: browserToken(c), origin: requestOrigin(c), tenantId: c.get('hostTenant')?.id ?? null })),
);

passkeysApi.post('/passkeys/sign-in/verify', async (c) => {
  const { response, remember } = await readJson(c, passkeySignInSchema);
  const outcome = await signInWithPasskey(c.get('deps'), {
    response: asAssertion(response),
    origin: requestOrigin(c),
    hostTenant: decidingTenant(c),
    client: clientInfo(c),
    browser: browserCookies(c),
    remember,
  });
  return answerOutcome(c, outcome);
});

// ---- Steps of a pending login (its challenge cookie) --------------------------------------------

const pendingStep = (c: Ctx): PendingStep => ({ token: challengeToken(c), hostTenantId: c.get('hostTenant')?.id ?? null, browser: browserToken(c), origin: requestOrigin(c) });

/** The end of a passkey step at login: completeSignIn decides again with what was proven. */
async function completeStep(c: Ctx, done: Awaited<ReturnType<typeof verifySecondStep>>, passed: { passkey?: boolean; passkeyEnrolled?: boolean }) {
  clearChallengeCookie(c);
  const outcome = await completeSignIn(c.get('deps'), {
    user: done.user,
    remember: done.remember,
    compliance: done.compliance,
    authenticatedAt: done.authenticatedAt,
    via: 'password',
    hostTenant: decidingTenant(c),
    client: clientInfo(c),
    browser: browserCookies(c),
    rememberedDeviceToken: rememberedDeviceCookie(c),
    passed: { secondFactor: true, ...passed },
    passkeyId: done.passkeyId,
  });
  return outcome;
}

passkeysApi.post('/passkeys/second-factor/options', async (c) => c.json(await secondStepOptions(c.get('deps'), pendingStep(c))));

passkeysApi.post('/passkeys/second-factor/verify', async (c) => {
  const { response } = await readJson(c, passkeyAssertionSchema);
  const done = await verifySecondStep(c.get('deps'), pendingStep(c), asAssertion(response), requestOrigin(c));
  return answerOutcome(c, await completeStep(c, done, { passkey: true }));
});

passkeysApi.post('/passkeys/enrolment/options', async (c) => c.json(await enrolmentOptions(c.get('deps'), pendingStep(c))));

passkeysApi.post('/passkeys/enrolment/verify', async (c) => {
  const { response } = await readJson(c, passkeyRegistrationSchema);
  const client = clientInfo(c);
  const done = await completeEnrolment(c.get('deps'), pendingStep(c), asRegistration(response), { origin: requestOrigin(c), ip: client.ip, userAgent: client.userAgent });
  return answerOutcome(c, await completeStep(c, { ...done, passkeyId: done.passkey.id }, { passkeyEnrolled: true }));
});

// ---- The person's own passkeys --------------------------------------------------------------------

/** As the account's two-factor calls: a session, not an SSO member of this host's tenant. */
const notSso: MiddlewareHandler<AuthedEnv> = async (c, next) => {
  if (isSsoUser(c)) return errorAnswer(c, 'forbidden');
  return next();
};
const account = [requireSession, notSso] as const;

function actor(c: SignedInCtx): Actor {
  return { user: c.get('user'), tenantId: c.get('hostTenant')?.id ?? null, ip: c.get('clientIp'), userAgent: c.req.header('user-agent') ?? null };
}

passkeysApi.get('/passkeys', ...account, async (c) => c.json({ passkeys: (await listPasskeys(c.get('deps').db, c.get('user').id)).map(passkeyView) }));

// Adding needs the password (or a passkey) confirmed in this session within 15 minutes.
passkeysApi.post('/passkeys/options', ...account, async (c) => {
  const deps = c.get('deps');
  const user = c.get('user');
  const session = c.get('session');
  assertRecentPassword(session, deps.clock.now());
  return c.json(await creationOptions(deps, user, { purpose: 'register', browser: browserToken(c), origin: requestOrigin(c), tenantId: c.get('hostTenant')?.id ?? null, sessionId: session.id }));
});

passkeysApi.post('/passkeys', ...account, async (c) => {
  const deps = c.get('deps');
  const user = c.get('user');
  const session = c.get('session');
  assertRecentPassword(session, deps.clock.now());
  const { response } = await readJson(c, passkeyRegistrationSchema);
  const a = actor(c);
  const passkey = await addPasskey(
    deps,
    { user, origin: requestOrigin(c), browser: browserToken(c), tenantId: a.tenantId, purpose: 'register', bound: (x) => x.sessionId === session.id, ip: a.ip, userAgent: a.userAgent },
    asRegistration(response),
  );
  return c.json({ message: 'success', passkey }, 201);
});

passkeysApi.patch('/passkeys/:id', ...account, async (c) => {
  const { name } = await readJson(c, passkeyRenameSchema);
  return c.json({ message: 'success', passkey: await renamePasskey(c.get('deps'), actor(c), c.req.param('id'), name) });
});

// Removing needs the password again; an account without one confirms with a passkey first.
passkeysApi.delete('/passkeys/:id', ...account, async (c) => {
  const deps = c.get('deps');
  const user = c.get('user');
  const session = c.get('session');
  const { password } = await readJson(c, passkeyRemoveSchema);
  if (user.passwordHash) {
    // No password typed is a wrong one (the hasher is never asked about an empty string).
    if (!password) throw new AppError('wrong_password');
    await verifyPasswordForSetup(deps, user, session, password);
  }
  else assertRecentPassword(session, deps.clock.now());
  await removePasskey(deps, actor(c), c.req.param('id'));
  return c.json({ message: 'success' });
});

// Confirming who is at the keyboard with a passkey instead of the password (15 minutes).
passkeysApi.post('/passkeys/verify-session/options', ...account, async (c) => {
  const deps = c.get('deps');
  const user = c.get('user');
  const session = c.get('session');
  const allow = await ownPasskeys(deps, user.id);
  return c.json(await requestOptions(deps, { purpose: 'reauth', browser: browserToken(c), origin: requestOrigin(c), tenantId: c.get('hostTenant')?.id ?? null, userId: user.id, sessionId: session.id }, allow));
});

passkeysApi.post('/passkeys/verify-session', ...account, async (c) => {
  const deps = c.get('deps');
  const user = c.get('user');
  const session = c.get('session');
  const { response } = await readJson(c, passkeyAssertionSchema);
  await reverifyWithPasskey(deps, { user, session, response: asAssertion(response), origin: requestOrigin(c), browser: browserToken(c), tenantId: c.get('hostTenant')?.id ?? null, ip: c.get('clientIp') });
  return c.json({ message: 'verified' });
});

// ---- A tenant admin, for a member's lost device ----------------------------------------------------

passkeysApi.delete('/admin/users/:id/passkeys', requireAccess('admin'), async (c) => {
  const removed = await removeMemberPasskeys(c.get('deps'), c.get('tenantScope'), idParam(c.req.param('id')), actorOf(c));
  return c.json({ message: 'success', removed });
});
