// Two-factor calls of spec 01 section 7: account setup (behind a fresh password check, never for
// SSO users) and the login side (one-time code, backup code, resend, forced setup at login).
import { Hono, type MiddlewareHandler } from 'hono';
import { completeSignIn } from '../../domain/sign-in/complete-sign-in';
import { parseAgent } from '../../domain/sign-in/user-agent';
import {
  enableAtLogin,
  enableSmsAtLogin,
  finishedLogin,
  loginSetupDetails,
  startLoginSetup,
  rememberThisDevice,
  resendLoginSetupSms,
  resendLoginSms,
  sendLoginSetupSms,
  skipSetupAtLogin,
  verifyLoginBackupCode,
  verifyLoginOtp,
} from '../../domain/twofa/login';
import {
  assertRecentPassword,
  disableTwofa,
  regenerateBackupCodes,
  enableTwofa,
  resendSetupSms,
  pendingSetupDetails,
  startSetup,
  setupSms,
  verifyPasswordForSetup,
} from '../../domain/twofa/setup';
import { backupCodeSchema, otpLoginSchema, otpSchema, smsContactSchema, twofaSetupSchema, verifyPasswordSchema } from '../../shared/schemas';
import type { User } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../domain/errors';
import { answerOutcome, clientInfo } from '../sign-in/http';
import { decidingTenant, type AppEnv, type AuthedEnv, type Ctx } from '../http/env';
import { isSsoUser, requireSession } from '../middleware/guards';
import { readJson } from '../http/validate';
import { browserCookies, challengeToken, clearChallengeCookie, rememberedDeviceCookie, setRememberedDeviceCookie } from '../http/cookies';
import { errorAnswer } from '../http/errors';

export const twofaApi = new Hono<AppEnv>();

/** Account 2FA: signed in, not an SSO user. */
const notSso: MiddlewareHandler<AuthedEnv> = async (c, next) => {
  if (isSsoUser(c)) return errorAnswer(c, 'forbidden');
  return next();
};
/** ...and the password re-entered in this session within 15 minutes. */
const recentPassword: MiddlewareHandler<AuthedEnv> = async (c, next) => {
  assertRecentPassword(c.get('session'), c.get('deps').clock.now());
  return next();
};
const account = [requireSession, notSso] as const;
const setup = [requireSession, notSso, recentPassword] as const;

twofaApi.post('/password/verify', ...account, async (c) => {
  const { password } = await readJson(c, verifyPasswordSchema);
  await verifyPasswordForSetup(c.get('deps'), c.get('user'), c.get('session'), password);
  return c.json({ message: 'verified' });
});

// One POST starts a setup (codes and secret made once); the spec's GETs only read it.
twofaApi.post('/twofa/setup', ...setup, async (c) => {
  const { method } = await readJson(c, twofaSetupSchema);
  return c.json(await startSetup(c.get('deps'), c.get('user'), method));
});
twofaApi.get('/twofa/backup-codes', ...setup, async (c) => c.json({ backupCodes: (await pendingSetupDetails(c.get('deps'), c.get('user'))).backupCodes }));
twofaApi.get('/twofa/app/qr', ...setup, async (c) => c.json({ qrCode: await appDetail(c.get('deps'), c.get('user'), 'qrCode') }));
// The key comes with its otpauth:// link (the same pending secret), for a phone's authenticator.
twofaApi.get('/twofa/app/manual-code', ...setup, async (c) => {
  const { manualCode, otpauthUrl } = await pendingSetupDetails(c.get('deps'), c.get('user'));
  if (!manualCode || !otpauthUrl) throw new AppError('no-pending-setup');
  return c.json({ manualCode, otpauthUrl });
});

async function appDetail(deps: Deps, user: User, what: 'qrCode' | 'manualCode'): Promise<string> {
  const value = (await pendingSetupDetails(deps, user))[what];
  if (!value) throw new AppError('no-pending-setup');
  return value;
}

twofaApi.post('/twofa/sms/otp', ...setup, async (c) => {
  const { contact } = await readJson(c, smsContactSchema);
  await setupSms(c.get('deps'), c.get('user'), contact, c.get('hostTenant')?.id ?? null);
  return c.json({ message: 'sent' });
});

twofaApi.post('/twofa/sms/otp/resend', ...setup, async (c) => {
  await resendSetupSms(c.get('deps'), c.get('user'), c.get('hostTenant')?.id ?? null);
  return c.json({ message: 'sent' });
});

twofaApi.post('/twofa/:method{app|sms}', ...setup, async (c) => {
  const { otp } = await readJson(c, otpSchema);
  const method = c.req.param('method') as 'app' | 'sms';
  await enableTwofa(c.get('deps'), c.get('user'), method, otp, c.get('hostTenant')?.id ?? null);
  return c.json({ message: 'success', twofa_method: method });
});

// New backup codes for an account with two-factor on, the password typed again (decision 0033).
twofaApi.post('/twofa/backup-codes/regenerate', ...account, async (c) => {
  const { password } = await readJson(c, verifyPasswordSchema);
  const backupCodes = await regenerateBackupCodes(c.get('deps'), c.get('user'), c.get('session'), password, c.get('hostTenant')?.id ?? null);
  return c.json({ message: 'success', backupCodes });
});

twofaApi.delete('/twofa', ...setup, async (c) => {
  await disableTwofa(c.get('deps'), c.get('user'), c.get('hostTenant')?.id ?? null);
  return c.json({ message: 'success' });
});

/** The end of every second-factor step at login: completeSignIn decides again, with what was proven. */
async function completeLogin(
  c: Ctx,
  done: ReturnType<typeof finishedLogin>,
  passed: { secondFactor?: boolean; setup?: 'enabled' | 'skipped' },
  rememberThis = false,
  extra: Record<string, unknown> = {},
) {
  const deps = c.get('deps');
  const hostTenant = decidingTenant(c);
  const client = clientInfo(c);
  clearChallengeCookie(c);
  const outcome = await completeSignIn(deps, {
    ...done,
    via: 'password',
    hostTenant,
    client,
    browser: browserCookies(c),
    rememberedDeviceToken: rememberedDeviceCookie(c),
    passed,
  });
  if (outcome.kind === 'session' && rememberThis) {
    const agent = parseAgent(client.userAgent);
    const r = await rememberThisDevice(deps, done.user, agent);
    setRememberedDeviceCookie(c, r.token, r.expiresAt);
  }
  return answerOutcome(c, outcome, extra);
}

twofaApi.post('/otp/verify', async (c) => {
  const { otp, rememberDevice: rememberThis } = await readJson(c, otpLoginSchema);
  const done = await verifyLoginOtp(c.get('deps'), challengeToken(c), c.get('hostTenant')?.id ?? null, otp);
  return completeLogin(c, done, { secondFactor: true }, rememberThis);
});

twofaApi.post('/backup-code', async (c) => {
  const { backupCode } = await readJson(c, backupCodeSchema);
  const { backupCodesLeft, ...done } = await verifyLoginBackupCode(c.get('deps'), challengeToken(c), c.get('hostTenant')?.id ?? null, backupCode);
  // How many are left, so the page can say so (and send the person for new ones at zero).
  return completeLogin(c, done, { secondFactor: true }, false, { backup_codes_left: backupCodesLeft });
});

twofaApi.post('/otp/resend', async (c) => {
  await resendLoginSms(c.get('deps'), challengeToken(c), c.get('hostTenant')?.id ?? null);
  return c.json({ message: 'sent' });
});

twofaApi.post('/setup-twofa-at-login/setup', async (c) => c.json(await startLoginSetup(c.get('deps'), challengeToken(c), c.get('hostTenant')?.id ?? null)));
twofaApi.get('/setup-twofa-at-login/app', async (c) => c.json(await loginSetupDetails(c.get('deps'), challengeToken(c), c.get('hostTenant')?.id ?? null)));

twofaApi.post('/setup-twofa-at-login/app', async (c) => {
  const { otp } = await readJson(c, otpSchema);
  const done = await enableAtLogin(c.get('deps'), challengeToken(c), c.get('hostTenant')?.id ?? null, otp);
  return completeLogin(c, done, { secondFactor: true, setup: 'enabled' });
});

// SMS instead of the authenticator at login (decision 0046): the account's SMS setup, with the code
// kept on the pending login.
twofaApi.post('/setup-twofa-at-login/sms/otp', async (c) => {
  const { contact } = await readJson(c, smsContactSchema);
  await sendLoginSetupSms(c.get('deps'), challengeToken(c), c.get('hostTenant')?.id ?? null, contact);
  return c.json({ message: 'sent' });
});

twofaApi.post('/setup-twofa-at-login/sms/otp/resend', async (c) => {
  await resendLoginSetupSms(c.get('deps'), challengeToken(c), c.get('hostTenant')?.id ?? null);
  return c.json({ message: 'sent' });
});

twofaApi.post('/setup-twofa-at-login/sms', async (c) => {
  const { otp } = await readJson(c, otpSchema);
  const done = await enableSmsAtLogin(c.get('deps'), challengeToken(c), c.get('hostTenant')?.id ?? null, otp);
  return completeLogin(c, done, { secondFactor: true, setup: 'enabled' });
});

twofaApi.post('/setup-twofa-at-login/skip', async (c) => {
  const done = await skipSetupAtLogin(c.get('deps'), challengeToken(c), c.get('hostTenant'));
  return completeLogin(c, done, { setup: 'skipped' });
});

