// The additional challenge of a pending login (spec 01 sections 4, 7, 8).
import { Hono } from 'hono';
import { resendAdditionalChallenge, verifyAdditionalChallenge } from '../../domain/auth/additional-challenge';
import { listMemberships } from '../../domain/tenants/memberships';
import { checkEntry, startSession } from '../../domain/auth/sign-in';
import { AppError } from '../../domain/errors';
import { otpSchema } from '../../shared/schemas';
import { challengeToken, clearChallengeCookie, clientInfo, signedIn } from '../auth-helpers';
import type { AppEnv } from '../env';
import { readJson } from './validate';

export const challengeApi = new Hono<AppEnv>();

challengeApi.post('/additional-challenge/verify', async (c) => {
  const { otp } = await readJson(c, otpSchema);
  const { deps, hostTenant } = c.var;
  const done = await verifyAdditionalChallenge(deps, challengeToken(c), hostTenant?.id ?? null, otp);
  clearChallengeCookie(c);
  // Membership may have changed while the code was on its way: the entry rules apply again.
  const entry = await checkEntry(deps, done.user, await listMemberships(deps.db, done.user.id), hostTenant, clientInfo(c));
  if (entry.kind === 'sso') throw new AppError('redirect-to-sso', 409, { initial_subdomain: entry.initialSubdomain });
  const session = await startSession(deps, {
    user: done.user,
    hostTenant,
    remember: done.remember,
    twofaPassed: false,
    authMethod: 'password',
    client: clientInfo(c),
    action: 'login.succeeded',
  });
  return signedIn(c, done.user, session, done.compliance);
});

challengeApi.post('/additional-challenge/resend', async (c) => {
  await resendAdditionalChallenge(c.var.deps, challengeToken(c), c.var.hostTenant?.id ?? null);
  return c.json({ message: 'code-resent' });
});
