// Sign-in calls of spec 01 section 7: v2/login, logout, user, user/language, and the host
// hand-off that moves a session to another tenant's host.
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { users } from '../../db/schema';
import { login } from '../../domain/auth/login';
import { deleteSession } from '../../domain/auth/sessions';
import { audit } from '../../domain/audit/log';
import { singleLogoutUrl } from '../../domain/sso/flow';
import { spUrls } from '../../domain/sso/sp';
import { userPayload } from '../../domain/users/profile';
import { safeContinuePath } from '../../shared/continue-path';
import { handoffSchema, languageSchema, loginSchema } from '../../shared/schemas';
import { clearSessionCookie } from '../cookies';
import { answerOutcome, clientInfo, browserCookies, handoffTo } from '../auth-helpers';
import { decidingTenant, type AppEnv, type Ctx } from '../env';
import { rememberedDeviceCookie } from './twofa';
import { requireSession } from '../middleware/guards';
import { jsonAnswer } from '../middleware/security';
import { readJson } from './validate';
import { appPaths, ssoStatus } from './helpers';

export const authApi = new Hono<AppEnv>();

authApi.post('/v2/login', async (c) => {
  const input = await readJson(c, loginSchema);
  const result = await login(c.get('deps'), {
    email: input.email,
    password: input.password,
    remember: input.remember,
    hostTenant: decidingTenant(c),
    client: clientInfo(c),
    browser: browserCookies(c),
    rememberedDeviceToken: rememberedDeviceCookie(c),
  });
  return answerOutcome(c, result);
});

authApi.post('/logout', async (c) => {
  const { session } = c.var;
  const { db, clock } = c.get('deps');
  let sloUrl: string | null = null;
  if (session) {
    // An SSO session also ends at the IdP: the browser goes to its single-logout URL.
    sloUrl = await singleLogoutUrl(c.get('deps'), c.get('hostTenant'), session);
    await deleteSession(db, session.id);
    await audit(db, { tenantId: session.tenantId, actorUserId: session.userId, action: 'logout', ipAddress: c.get('clientIp') }, clock.now());
  }
  clearSessionCookie(c);
  return c.json({ message: 'success', sloUrl });
});

authApi.get('/user', async (c) => {
  const user = c.get('user');
  if (!user) {
    // With SSO on for this tenant: where its SAML login starts (on the initial subdomain).
    const status = await ssoStatus(c);
    const tenant = c.get('hostTenant');
    const sso = tenant && status !== 'none' ? spUrls(c.get('deps').config, tenant) : null;
    return c.json({ message: 'unauthenticated', ssoUrl: sso?.loginUrl ?? null, ssoSubdomain: sso ? tenant!.initialSubdomain : null, statusSSOActiveUsers: status }, 401);
  }
  // The call every app makes on every page: answered with all its headers at once, from what the
  // request's one statement read (the memberships its session's scope may see).
  return jsonAnswer(c, { user: userPayload(user, c.get('memberships') ?? [], c.get('hostTenant'), c.get('scope') ?? { kind: 'person' }) });
});

authApi.patch('/user/language', requireSession, async (c) => {
  const { language } = await readJson(c, languageSchema);
  const { db, clock } = c.get('deps');
  await db.update(users).set({ language, updatedAt: clock.now() }).where(eq(users.id, c.get('user').id));
  return c.json({ message: 'success', language });
});

/** Issues a one-time code for another tenant's host and answers the URL that redeems it. */
authApi.post('/handoff', requireSession, async (c) => {
  const input = await readJson(c, handoffSchema);
  const { deps } = c.var;
  const base = deps.config.BASE_PATH;
  const path = safeContinuePath(input.continue, base, appPaths(deps.config)) ?? `${base}/my-account`;
  return c.json(await handoffTo(c as unknown as Ctx, input.tenant_id, path));
});
