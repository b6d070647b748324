// createApp(deps): middleware order and route mounting (DESIGN.md section 2).
import { sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { bodyLimit } from 'hono/body-limit';
import type { Deps } from './deps';
import { AppError, fieldTexts, type FieldText } from './domain/errors';
import { SAML_PATHS } from './domain/sso/sp';
import { account } from './routes/account';
import { audit } from './routes/audit';
import { billing } from './routes/billing';
import { appUrls } from './routes/http/apps';
import type { AppEnv } from './routes/http/env';
import { errorPage } from './routes/http/framed';
import { contextMiddleware } from './routes/middleware/context';
import { pageGuard, personScopeGuard } from './routes/middleware/guards';
import { csrfGuard, securityHeaders } from './routes/middleware/security';
import { openApiRoute } from './routes/openapi/openapi';
import { operations } from './routes/operations';
import { devPages } from './routes/operations/dev-pages';
import { operator } from './routes/operator';
import { passkeys } from './routes/passkeys';
import { people, UPLOAD_PATHS } from './routes/people';
import { signIn } from './routes/sign-in';
import { scim } from './routes/scim';
import { scimService } from './routes/scim/service';
import { sso } from './routes/sso';
import { tenantSettings } from './routes/tenant-settings';
import { twofa } from './routes/twofa';
import { errorAnswer } from './routes/http/errors';

/** The features, in the order their calls and screens are matched (src/routes/<feature>/index.ts). */
const FEATURES = [operations, sso, signIn, account, twofa, passkeys, tenantSettings, billing, people, scim, audit, operator];

/** JSON bodies above this are refused before parsing (uploads get their own limit). */
export const JSON_BODY_LIMIT = 64 * 1024;
/** The assertion consumer's form body: a base64 response of at most 100 KB XML, plus RelayState. */
export const SAML_BODY_LIMIT = 140 * 1024;
/** Pasted IdP metadata (decision 0042): up to 512 KB of XML inside JSON. */
export const METADATA_BODY_LIMIT = 600 * 1024;

export function createApp(deps: Deps) {
  const base = deps.config.BASE_PATH;
  const app = new Hono<AppEnv>();

  // Health first: answers on any host (load balancers probe by address), at the root and under
  // the base path (a deployment that routes only <base>/* to the portal still has them).
  // healthz (liveness) touches nothing; readyz (readiness) also asks the database for one row.
  const live = (c: Context) => c.json({ status: 'ok', version: deps.config.version }, 200, { 'Cache-Control': 'no-store' });
  const ready = async (c: Context) => {
    const headers = { 'Cache-Control': 'no-store' };
    try {
      await deps.db.run(sql`select 1`);
      return c.json({ status: 'ok', version: deps.config.version, database: 'ok' }, 200, headers);
    } catch (e) {
      console.error(JSON.stringify({ level: 'error', event: 'readiness_failed', error: String(e) }));
      return c.json({ status: 'unavailable', version: deps.config.version, database: 'unreachable' }, 503, headers);
    }
  };
  for (const prefix of ['', base]) {
    app.get(`${prefix}/healthz`, live);
    app.get(`${prefix}/readyz`, ready);
  }

  app.use('*', securityHeaders);
  app.use('*', contextMiddleware(deps));

  const api = new Hono<AppEnv>();
  const acsPath = `${base}${SAML_PATHS.acs}`;
  const jsonLimit = bodyLimit({ maxSize: JSON_BODY_LIMIT, onError: (c) => errorAnswer(c, 'payload-too-large') });
  const samlLimit = bodyLimit({ maxSize: SAML_BODY_LIMIT, onError: (c) => errorAnswer(c, 'payload-too-large') });
  const metadataLimit = bodyLimit({ maxSize: METADATA_BODY_LIMIT, onError: (c) => errorAnswer(c, 'payload-too-large') });
  const metadataPath = `${base}/api/admin/saml/metadata`;
  // CSV uploads carry their own 50 MB limit (src/routes/people/import-api.ts).
  const uploads = new Set(UPLOAD_PATHS.map((p) => `${base}/api${p}`));
  // The add-in backend calls redeem server to server; its single-use token is the credential.
  // Operator calls authenticate with a bearer header only (never a cookie), which a browser
  // does not send on its own, so the cookie CSRF rule does not apply to them.
  // The SAML assertion consumer receives the IdP's cross-site form POST; the signed response,
  // bound to a browser-bound single-use request, is its protection (decision 0015).
  const csrf = csrfGuard([`${base}/api/outlook-sso/redeem`, `${base}/api/operator/*`, acsPath]);
  api.use('*', async (c, next) => {
    // A GET or HEAD carries no body (a Request refuses one) and changes nothing: neither rule
    // applies, and one step instead of two is felt on the call every app makes on every page.
    // Asking for the body anyway made Node's adapter build a whole undici Request for every read.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const guarded = async () => {
      // The guard answers a refusal itself, or goes on to the route (which sets c.res).
      const refused = await csrf(c, next);
      if (refused instanceof Response) c.res = refused;
    };
    if (c.req.path === acsPath) return samlLimit(c, guarded);
    if (c.req.path === metadataPath) return metadataLimit(c, guarded);
    if (c.req.method === 'POST' && uploads.has(c.req.path)) return guarded();
    return jsonLimit(c, guarded);
  });
  // A session a tenant's IdP made may not use the person's account-wide calls (decision 0035).
  api.use('*', personScopeGuard(`${base}/api`));
  for (const f of FEATURES) api.route('/', f.api);
  api.route('/', openApiRoute);
  api.all('*', (c) => errorAnswer(c, 'not-found'));
  app.route(`${base}/api`, api);

  // The SCIM 2.0 service provider of each tenant (decision 0040): bearer tokens only, SCIM's own
  // bodies and errors; mounted before the screens so that the page guard never sees its paths.
  app.route(`${base}/scim/v2`, scimService);

  const pages = new Hono<AppEnv>();
  pages.use('*', pageGuard);
  for (const f of FEATURES) pages.route('/', f.pages);
  app.route(base, pages);
  app.get('/', (c) => c.redirect(`${base}/login`, 302));
  if (deps.config.DEV_MODE) app.route('/', devPages(base, appUrls(deps.config)));

  app.notFound((c) =>
    // A page in the frame of every other page (the toolbar and drawer for a signed-in person).
    c.req.path.startsWith(`${base}/api/`) ? errorAnswer(c, 'not-found') : errorPage(c, 404, 'errors.not-found'),
  );
  app.onError((err, c) => {
    const isApi = c.req.path.startsWith(`${base}/api/`);
    if (err instanceof AppError) {
      // Rate limits tell the client when to try again, in seconds and as an epoch time.
      const wait = err.status === 429 ? Number(err.details.duration) : NaN;
      if (Number.isFinite(wait)) {
        c.header('Retry-After', String(wait));
        c.header('X-RateLimit-Reset', String(Math.ceil(deps.clock.now() / 1000) + wait));
      }
      // Field errors name text keys: they are said in the request's language here, at the edge.
      const details = isFieldErrors(err.details.errors) ? { ...err.details, errors: fieldTexts(c.get('t'), err.details.errors) } : err.details;
      if (isApi) return c.json({ message: err.word, ...details }, err.status as ContentfulStatusCode);
      return errorPage(c, err.status === 404 ? 404 : err.status === 403 ? 403 : 400, 'errors.generic');
    }
    console.error(JSON.stringify({ level: 'error', requestId: c.get('requestId'), path: c.req.path, error: String(err), stack: (err as Error).stack }));
    return isApi ? errorAnswer(c, 'server-error') : c.text('Internal Server Error', 500);
  });
  return app;
}

export type App = ReturnType<typeof createApp>;

const isFieldErrors = (v: unknown): v is Record<string, FieldText[]> => typeof v === 'object' && v !== null && Object.values(v).every(Array.isArray);
