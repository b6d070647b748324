// Account self-service calls of spec 01 section 7: forgot/reset, registration and verification
// links, change password, session devices, language.
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { users } from '../../db/schema';
import { changePassword } from '../../domain/account/change-password';
import { forgetRememberedDevice, listDevices, logoutDevice, logoutOtherDevices } from '../../domain/account/devices';
import { isResetTokenValid, policyForEmail, requestPasswordReset, resetPassword } from '../../domain/account/password-reset';
import { register, sendVerificationMail, verifyEmail, type LinkQuery } from '../../domain/account/registration';
import { AppError } from '../../domain/errors';
import type { User } from '../../db/schema';
import {
  changePasswordSchema,
  emailSchema,
  forgotSchema,
  languageSchema,
  registerSchema,
  resetPasswordSchema,
  verifyResetTokenSchema,
} from '../../shared/schemas';
import { answerOutcome, signInAfterPasswordSet } from '../sign-in/http';
import type { AppEnv, Ctx } from '../http/env';
import { requireSession } from '../middleware/guards';
import { presentedLink, signedLinkParams } from './signed-link';
import { limitPerAddress } from '../middleware/rate-limit';
import { policyLimit, registerLimit, requestOrigin, resetCheckLimit } from './http';
import { idParam } from '../http/params';
import { readJson } from '../http/validate';
import { rememberedDeviceCookie } from '../http/cookies';

export const accountApi = new Hono<AppEnv>();

accountApi.post('/password/email', async (c) => {
  const { email } = await readJson(c, forgotSchema);
  const outcome = await requestPasswordReset(c.get('deps'), email, c.get('hostTenant'), c.get('clientIp'));
  return c.json({ message: outcome }, outcome === 'error_sending_mail' ? 502 : 200);
});


accountApi.post('/password/verify-reset-token', resetCheckLimit, async (c) => {
  const { email, token } = await readJson(c, verifyResetTokenSchema);
  if (!(await isResetTokenValid(c.get('deps'), email, token))) throw new AppError('invalid-token');
  return c.json({ message: 'valid' });
});

accountApi.get('/users/password-policy/:email', policyLimit, async (c) => {
  const parsed = emailSchema.safeParse(c.req.param('email'));
  if (!parsed.success) throw new AppError('The given data was invalid.', { errors: { email: [c.get('t')('validation.emailInvalid')] } });
  return c.json(await policyForEmail(c.get('deps'), parsed.data, c.get('hostTenant')));
});

/** The answer after a reset or a registration: signed in, the next step, or sign in again. */
async function answerPasswordSet(c: Ctx, user: User, password: string, via: 'reset' | 'registration') {
  const outcome = await signInAfterPasswordSet(c, user, password, via);
  if (outcome.kind === 'requires-login') return c.json({ message: 'password-set', requires_login: true, user: null });
  return answerOutcome(c, outcome);
}

accountApi.post('/password/reset', async (c) => {
  const input = await readJson(c, resetPasswordSchema);
  const user = await resetPassword(c.get('deps'), {
    email: input.email,
    token: input.token,
    password: input.password,
    confirmation: input.password_confirmation,
    hostTenant: c.get('hostTenant'),
    ip: c.get('clientIp'),
  });
  return answerPasswordSet(c, user, input.password, 'reset');
});

/** The signed link the island forwards: the path's id, the query's parts (plain or `amp;`). */
function linkOf(c: Ctx): { id: number; query: LinkQuery } {
  const id = idParam(c.req.param('id'));
  const params = signedLinkParams(c);
  const link = presentedLink(params, String(id), params?.email);
  if (!link) throw new AppError('Invalid signature.');
  return link;
}


accountApi.post('/users/register/:id', registerLimit, async (c) => {
  const input = await readJson(c, registerSchema);
  const user = await register(c.get('deps'), {
    origin: requestOrigin(c),
    ...linkOf(c),
    password: input.password,
    confirmation: input.password_confirmation,
    hostTenant: c.get('hostTenant'),
    ip: c.get('clientIp'),
  });
  return answerPasswordSet(c, user, input.password, 'registration');
});

accountApi.post('/users/verify/:id', limitPerAddress('verify', 20, 60_000), async (c) => {
  await verifyEmail(c.get('deps'), { origin: requestOrigin(c), ...linkOf(c), ip: c.get('clientIp') });
  return c.json({ message: 'verified' });
});

accountApi.post('/verification-mail/:id', requireSession, async (c) => {
  // Only for oneself: another user's id is a 404.
  if (idParam(c.req.param('id')) !== c.get('user').id) throw new AppError('not-found');
  await sendVerificationMail(c.get('deps'), c.get('user'), c.get('hostTenant'));
  return c.json({ message: 'email_sent' });
});

accountApi.patch('/password', requireSession, async (c) => {
  const input = await readJson(c, changePasswordSchema);
  const user = c.get('user');
  const session = c.get('session');
  const hostTenant = c.get('hostTenant');
  const member = c.get('member');
  if (hostTenant?.isSsoEnabled && member?.isSsoEnabled) throw new AppError('forbidden');
  await changePassword(c.get('deps'), {
    user,
    session,
    hostTenant,
    current: input.current_password,
    next: input.new_password,
    confirmation: input.new_password_confirmation,
    ip: c.get('clientIp'),
  });
  return c.json({ message: 'success' });
});

accountApi.get('/session-devices', requireSession, async (c) =>
  c.json(await listDevices(c.get('deps'), c.get('session'), c.get('scope'), rememberedDeviceCookie(c))),
);

accountApi.post('/session-devices/logout-others', requireSession, async (c) => {
  const count = await logoutOtherDevices(c.get('deps'), c.get('session'), c.get('scope'), c.get('clientIp'));
  return c.json({ message: 'success', count });
});

accountApi.post('/session-devices/:id/logout', requireSession, async (c) => {
  const id = c.req.param('id');
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new AppError('not-found');
  if (id === c.get('session').id) throw new AppError('cannot-logout-current-session');
  await logoutDevice(c.get('deps'), c.get('session'), c.get('scope'), id, c.get('clientIp'));
  return c.json({ message: 'success' });
});

accountApi.delete('/session-devices/remembered/:id', requireSession, async (c) => {
  const id = c.req.param('id');
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new AppError('not-found');
  await forgetRememberedDevice(c.get('deps'), c.get('session'), c.get('scope'), id, c.get('clientIp'));
  return c.json({ message: 'success' });
});

accountApi.patch('/user/language', requireSession, async (c) => {
  const { language } = await readJson(c, languageSchema);
  const { db, clock } = c.get('deps');
  await db.update(users).set({ language, updatedAt: clock.now() }).where(eq(users.id, c.get('user').id));
  return c.json({ message: 'success', language });
});
