// SAML calls (spec 01 section 7, spec 02 "SSO"): SP metadata, saml2/all/login, the assertion
// consumer (the one path exempt from the CSRF rule: a cross-site form POST from the IdP, which the
// signed response protects), the IdP's single-logout endpoint, and the admin settings calls.
import { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { audit } from '../../domain/audit/log';
import { AppError } from '../../domain/errors';
import { randomToken } from '../../domain/security/tokens';
import { consumeResponse, idpLogout, startLogin } from '../../domain/sso/flow';
import { previewMetadata, samlSettingView, saveSamlSetting, setIdpStatus } from '../../domain/sso/settings';
import { SAML_PATHS, spMetadata } from '../../domain/sso/sp';
import { SamlRefusal } from '../../domain/sso/xml-guard';
import { clientInfo } from '../sign-in/http';
import { setSessionCookie } from '../http/cookies';
import { decidingTenant, type AppEnv, type Ctx } from '../http/env';
import { requireAccess } from '../middleware/guards';
import { samlResultPage } from './result-pages';
import { appPaths } from '../http/apps';
import { readJson } from '../http/validate';
import { errorAnswer } from '../http/errors';
import { actorOf } from '../http/actor';
import { isIdpPreset, type IdpGuide } from '../../shared/sso/presets';
import { idpStatusSchema, metadataSourceSchema, samlSettingSchema } from '../../shared/sso/schemas';

export const samlApi = new Hono<AppEnv>();

/**
 * Binds an AuthnRequest to the browser that started it. The IdP's POST back is cross-site, so the
 * cookie must be SameSite=None (and therefore Secure; browsers treat *.localhost as secure).
 */
const BINDING_COOKIE = 'portal_saml_binding';

function bindingToken(c: Ctx, create: boolean): string | null {
  const existing = getCookie(c, BINDING_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  if (!create) return null;
  const token = randomToken(32);
  setCookie(c, BINDING_COOKIE, token, { path: `${c.get('deps').config.BASE_PATH}/api/saml2/`, httpOnly: true, secure: true, sameSite: 'None', maxAge: 3600 });
  return token;
}

samlApi.get('/saml2/all/metadata', (c) => {
  const tenant = c.get('hostTenant');
  if (!tenant) return errorAnswer(c, 'not-found');
  // ?download: the same document as a file for IdPs that take an upload (decision 0042).
  const headers: Record<string, string> = { 'Content-Type': 'application/samlmetadata+xml; charset=utf-8', 'Cache-Control': 'public, max-age=300' };
  if (c.req.query('download') !== undefined) headers['Content-Disposition'] = `attachment; filename="${tenant.initialSubdomain}-sp-metadata.xml"`;
  return c.body(spMetadata(c.get('deps').config, tenant), 200, headers);
});

samlApi.get('/saml2/all/login', async (c) => {
  const tenant = c.get('hostTenant');
  if (!tenant) return samlResultPage(c, 'error', 404);
  try {
    const url = await startLogin(c.get('deps'), {
      tenant,
      relayState: c.req.query('RelayState') ?? null,
      bindingToken: bindingToken(c, true)!,
      appPaths: appPaths(c.get('deps').config),
    });
    return c.redirect(url, 302);
  } catch (err) {
    if (err instanceof AppError) return samlResultPage(c, 'error', 404);
    throw err;
  }
});

async function refused(c: Ctx, reason: string, expiredAt?: number) {
  const { db, clock } = c.get('deps');
  await audit(db, { tenantId: c.get('hostTenant')?.id ?? null, actorUserId: null, action: 'login.sso.refused', ipAddress: c.get('clientIp'), userAgent: c.req.header('user-agent') ?? null, details: { reason } }, clock.now());
  return samlResultPage(c, 'error', 403, expiredAt);
}

samlApi.post(SAML_PATHS.acs.replace('/api', ''), async (c) => {
  const tenant = decidingTenant(c);
  if (!tenant) return samlResultPage(c, 'error', 404);
  if (!/^application\/x-www-form-urlencoded\b/i.test(c.req.header('content-type') ?? '')) return refused(c, 'content-type');
  const form = new URLSearchParams(await c.req.text());
  const samlResponse = form.get('SAMLResponse');
  if (!samlResponse) return refused(c, 'missing-response');
  try {
    const result = await consumeResponse(c.get('deps'), {
      tenant,
      samlResponse,
      relayState: form.get('RelayState'),
      bindingToken: bindingToken(c, false),
      client: clientInfo(c),
      appPaths: appPaths(c.get('deps').config),
    });
    if (result.kind === 'test-passed') {
      await audit(c.get('deps').db, { tenantId: tenant.id, actorUserId: null, action: 'admin.sso.test-passed', ipAddress: c.get('clientIp') }, c.get('deps').clock.now());
      return samlResultPage(c, 'passed', 200);
    }
    setSessionCookie(c, result.signIn.token, result.signIn.remember, result.signIn.expiresAt);
    return c.redirect(result.destination, 303);
  } catch (err) {
    if (err instanceof SamlRefusal) return refused(c, err.reason, err.expiredAt);
    if (err instanceof AppError) return refused(c, err.code);
    throw err;
  }
});

/** The IdP's LogoutRequest (HTTP-Redirect binding). */
samlApi.get('/saml2/all/sls', async (c) => {
  const tenant = c.get('hostTenant');
  if (!tenant) return errorAnswer(c, 'not-found');
  const url = new URL(c.req.url);
  try {
    const { ended, responseUrl } = await idpLogout(c.get('deps'), tenant, c.req.query(), url.search.slice(1));
    await audit(c.get('deps').db, { tenantId: tenant.id, actorUserId: null, action: 'logout.sso.idp', ipAddress: c.get('clientIp'), details: { ended } }, c.get('deps').clock.now());
    return responseUrl ? c.redirect(responseUrl, 302) : c.redirect(`${c.get('deps').config.BASE_PATH}/login`, 302);
  } catch (err) {
    if (err instanceof SamlRefusal) return refused(c, `logout:${err.reason}`);
    throw err;
  }
});

const admin = requireAccess('admin');

samlApi.get('/admin/saml', admin, async (c) => c.json(await samlSettingView(c.get('deps'), c.get('tenantScope'))));

samlApi.post('/admin/saml', admin, async (c) => {
  const input = await readJson(c, samlSettingSchema);
  return c.json({ message: 'success', ...(await saveSamlSetting(c.get('deps'), c.get('tenantScope'), input, actorOf(c))) });
});

/** The IdP's values from its metadata (URL fetched by the server, or XML) for the admin to review. */
samlApi.post('/admin/saml/metadata', admin, async (c) => {
  const input = await readJson(c, metadataSourceSchema);
  return c.json({ message: 'success', metadata: await previewMetadata(c.get('deps'), c.get('tenantScope'), input) });
});

/** A preset's guide in the request's language, loaded when the admin picks it (keeps the island light). */
samlApi.get('/admin/saml/guide/:preset', admin, (c) => {
  const preset = c.req.param('preset');
  if (!isIdpPreset(preset)) return errorAnswer(c, 'not-found');
  const t = c.get('t');
  const guide: IdpGuide = {
    preset,
    name: t(`sso.presets.${preset}`),
    steps: t(`ssoGuide.${preset}.steps`).split('\n'),
    nameId: t(`ssoGuide.${preset}.nameId`),
    attributes: t(`ssoGuide.${preset}.attributes`),
    test: t(`ssoGuide.${preset}.test`),
  };
  return c.json({ guide });
});

samlApi.patch('/admin/saml/configure-idp-status', admin, async (c) => {
  const { isIdpConfigured } = await readJson(c, idpStatusSchema);
  return c.json(await setIdpStatus(c.get('deps'), c.get('tenantScope'), isIdpConfigured, actorOf(c)));
});
