// Sign-in calls of spec 01 section 7: v2/login, logout, user, user/language, and the host
// hand-off that moves a session to another tenant's host.
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { users, type Tenant } from '../../db/schema';
import { createHandoff } from '../../domain/auth/handoff';
import { login } from '../../domain/auth/login';
import { deleteSession } from '../../domain/auth/sessions';
import { audit } from '../../domain/audit/log';
import { AppError } from '../../domain/errors';
import { singleLogoutUrl } from '../../domain/sso/flow';
import { spUrls } from '../../domain/sso/sp';
import { tenantOrigin } from '../../domain/tenants/hosts';
import { listMemberships } from '../../domain/tenants/memberships';
import { userPayload } from '../../domain/users/profile';
import { safeContinuePath } from '../../shared/continue-path';
import { handoffSchema, languageSchema, loginSchema } from '../../shared/schemas';
import { clearSessionCookie } from '../cookies';
import { answerOutcome, clientInfo, deviceToken, handoffBrowserToken } from '../auth-helpers';
import type { AppEnv } from '../env';
import { rememberedDeviceCookie } from './twofa';
import { requireSession } from '../middleware/guards';
import { readJson } from './validate';
import { appPaths, ssoStatus } from './helpers';

export const authApi = new Hono<AppEnv>();

authApi.post('/v2/login', async (c) => {
  const input = await readJson(c, loginSchema);
  const result = await login(c.var.deps, {
    email: input.email,
    password: input.password,
    remember: input.remember,
    hostTenant: c.var.hostTenant,
    client: clientInfo(c),
    deviceToken: deviceToken(c),
    rememberedDeviceToken: rememberedDeviceCookie(c),
  });
  return answerOutcome(c, result);
});

authApi.post('/logout', async (c) => {
  const { session } = c.var;
  const { db, clock } = c.var.deps;
  let sloUrl: string | null = null;
  if (session) {
    // An SSO session also ends at the IdP: the browser goes to its single-logout URL.
    sloUrl = await singleLogoutUrl(c.var.deps, c.var.hostTenant, session);
    await deleteSession(db, session.id);
    await audit(db, { tenantId: session.tenantId, actorUserId: session.userId, action: 'logout', ipAddress: c.var.clientIp }, clock.now());
  }
  clearSessionCookie(c);
  return c.json({ message: 'success', sloUrl });
});

authApi.get('/user', async (c) => {
  const { user } = c.var;
  if (!user) {
    // With SSO on for this tenant: where its SAML login starts (on the initial subdomain).
    const status = await ssoStatus(c);
    const tenant = c.var.hostTenant;
    const sso = tenant && status !== 'none' ? spUrls(c.var.deps.config, tenant) : null;
    return c.json({ message: 'unauthenticated', ssoUrl: sso?.loginUrl ?? null, ssoSubdomain: sso ? tenant!.initialSubdomain : null, statusSSOActiveUsers: status }, 401);
  }
  const memberships = await listMemberships(c.var.deps.db, user.id);
  return c.json({ user: userPayload(user, memberships, c.var.hostTenant) });
});

authApi.patch('/user/language', requireSession, async (c) => {
  const { language } = await readJson(c, languageSchema);
  const { db, clock } = c.var.deps;
  await db.update(users).set({ language, updatedAt: clock.now() }).where(eq(users.id, c.var.user.id));
  return c.json({ message: 'success', language });
});

/** Issues a one-time code for another tenant's host and answers the URL that redeems it. */
authApi.post('/handoff', requireSession, async (c) => {
  const input = await readJson(c, handoffSchema);
  const { deps } = c.var;
  const base = deps.config.BASE_PATH;
  const path = safeContinuePath(input.continue, base, appPaths(deps.config)) ?? `${base}/my-account`;
  let handoff;
  try {
    handoff = await createHandoff(deps, c.var.session, input.tenant_id, path, handoffBrowserToken(c, true) ?? '');
  } catch (err) {
    // An SSO member of the chosen tenant goes to its SAML login (the browser just follows `url`).
    if (err instanceof AppError && err.code === 'redirect-to-sso') {
      const here = new URL(c.req.url);
      const origin = `${c.var.https ? 'https' : 'http'}://${String(err.details.initial_subdomain)}.${deps.config.PORTAL_DOMAIN}${here.port ? ':' + here.port : ''}`;
      return c.json({ message: 'redirect-to-sso', url: `${origin}${base}/api/saml2/all/login?RelayState=${encodeURIComponent(path)}` });
    }
    // A session an IdP vouched for does not reach other tenants: the person signs in there.
    if (err instanceof AppError && err.code === 'sign-in-required') {
      const origin = tenantOrigin(err.details.tenant as Tenant, deps.config.PORTAL_DOMAIN, new URL(c.req.url), c.var.https);
      return c.json({ message: 'sign-in-required', url: `${origin}${base}/login?continue=${encodeURIComponent(path)}` });
    }
    throw err;
  }
  const { code, tenant } = handoff;
  const origin = tenantOrigin(tenant, deps.config.PORTAL_DOMAIN, new URL(c.req.url), c.var.https);
  return c.json({ url: `${origin}${base}/handoff?code=${encodeURIComponent(code)}` });
});

