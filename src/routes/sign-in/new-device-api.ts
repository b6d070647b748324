// The additional challenge of a pending login (spec 01 sections 4, 7, 8).
import { Hono } from 'hono';
import { resendAdditionalChallenge, verifyAdditionalChallenge } from '../../domain/sign-in/new-device-code';
import { completeSignIn } from '../../domain/sign-in/complete-sign-in';
import { otpSchema } from '../../shared/schemas';
import { answerOutcome, clientInfo } from './http';
import { decidingTenant, type AppEnv } from '../http/env';
import { readJson } from '../http/validate';
import { browserCookies, challengeToken, clearChallengeCookie, rememberedDeviceCookie } from '../http/cookies';

export const challengeApi = new Hono<AppEnv>();

challengeApi.post('/additional-challenge/verify', async (c) => {
  const { otp } = await readJson(c, otpSchema);
  const deps = c.get('deps');
  const hostTenant = decidingTenant(c);
  const done = await verifyAdditionalChallenge(deps, challengeToken(c), hostTenant?.id ?? null, otp);
  clearChallengeCookie(c);
  // The mailbox is proven; what else is owed (a 2FA setup the tenant enforces) is decided again.
  const outcome = await completeSignIn(deps, {
    ...done,
    via: 'password',
    hostTenant,
    client: clientInfo(c),
    browser: browserCookies(c),
    rememberedDeviceToken: rememberedDeviceCookie(c),
    passed: { emailCode: true },
  });
  return answerOutcome(c, outcome);
});

challengeApi.post('/additional-challenge/resend', async (c) => {
  await resendAdditionalChallenge(c.get('deps'), challengeToken(c), c.get('hostTenant')?.id ?? null);
  return c.json({ message: 'code-resent' });
});
