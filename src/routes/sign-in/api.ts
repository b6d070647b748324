// Sign-in calls of spec 01 section 7: v2/login, logout, user, the host hand-off that moves a
// session to another tenant's host, the Outlook add-in's mapping, and the tenant lookup.
import { eq, or } from 'drizzle-orm';
import { Hono } from 'hono';
import * as z from 'zod/mini';
import { tenants } from '../../db/schema';
import { AppError } from '../../domain/errors';
import { mapAddinToken, redeemAddinToken } from '../../domain/sign-in/outlook';
import { login } from '../../domain/sign-in/password-login';
import { deleteSession } from '../../domain/sign-in/sessions';
import { audit } from '../../domain/audit/log';
import { singleLogoutUrl } from '../../domain/sso/flow';
import { spUrls } from '../../domain/sso/sp';
import { userPayload } from '../../domain/account/profile';
import { safeContinuePath } from '../../shared/sign-in/continue-path';
import { addinRedeemSchema, addinTokenSchema, handoffSchema, loginSchema } from '../../shared/schemas';
import { browserCookies, clearSessionCookie, rememberedDeviceCookie } from '../http/cookies';
import { answerOutcome, clientInfo, handoffTo } from './http';
import { decidingTenant, type AppEnv } from '../http/env';
import { requireSession } from '../middleware/guards';
import { limitPerAddress } from '../middleware/rate-limit';
import { jsonAnswer } from '../middleware/security';
import { readJson } from '../http/validate';
import { appPaths, ssoStatus } from '../http/apps';
import { errorAnswer } from '../http/errors';

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
  const session = c.get('session');
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
    const sso = tenant && status !== 'none' ? { urls: spUrls(c.get('deps').config, tenant), subdomain: tenant.initialSubdomain } : null;
    return errorAnswer(c, 'unauthenticated', { ssoUrl: sso?.urls.loginUrl ?? null, ssoSubdomain: sso?.subdomain ?? null, statusSSOActiveUsers: status });
  }
  // The call every app makes on every page: answered with all its headers at once, from what the
  // request's one statement read (the memberships its session's scope may see).
  return jsonAnswer(c, { user: userPayload(user, c.get('memberships') ?? [], c.get('hostTenant'), c.get('scope') ?? { kind: 'person' }) });
});

/** Issues a one-time code for another tenant's host and answers the URL that redeems it. */
authApi.post('/handoff', requireSession, async (c) => {
  const input = await readJson(c, handoffSchema);
  const deps = c.get('deps');
  const base = deps.config.BASE_PATH;
  const path = safeContinuePath(input.continue, base, appPaths(deps.config)) ?? `${base}/my-account`;
  return c.json(await handoffTo(c, input.tenant_id, path));
});

authApi.post('/outlook-sso/map-user', requireSession, async (c) => {
  const { token } = await readJson(c, addinTokenSchema);
  await mapAddinToken(c.get('deps'), c.get('user'), c.get('hostTenant')?.id ?? null, token, c.get('clientIp'));
  return c.json({ message: 'success' });
});

/** The add-in redeems its mapping with its verifier (exempt from the browser CSRF rule). */
authApi.post('/outlook-sso/redeem', limitPerAddress('addin-redeem', 60, 60_000), async (c) => {
  const { verifier } = await readJson(c, addinRedeemSchema);
  return c.json(await redeemAddinToken(c.get('deps'), verifier));
});

authApi.get('/tenants/subdomains/:subdomain', limitPerAddress('tenant-lookup', 60, 60_000), async (c) => {
  const label = c.req.param('subdomain').toLowerCase();
  if (!z.string().check(z.regex(/^[a-z0-9][a-z0-9_-]{0,61}[a-z0-9]$|^[a-z0-9]$/)).safeParse(label).success) throw new AppError('not-found');
  const t = await c.get('deps').db
    .select({ name: tenants.name, subdomain: tenants.subdomain, initial_subdomain: tenants.initialSubdomain, is_sso_enabled: tenants.isSsoEnabled })
    .from(tenants)
    .where(or(eq(tenants.subdomain, label), eq(tenants.initialSubdomain, label)))
    .get();
  if (!t) throw new AppError('not-found');
  return c.json(t);
});
