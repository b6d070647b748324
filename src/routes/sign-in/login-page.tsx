// Login screen (spec 01 "Login screen"); a signed-in visitor goes straight to the redirection step.
// Without JavaScript the form posts here (decision 0029): Next answers the password step (or the
// IdP), the password step signs in through the same domain function as POST api/v2/login, and
// the organisation chooser posts its choice to /login/organization.
import { Hono } from 'hono';
import { login } from '../../domain/sign-in/password-login';
import { AppError } from '../../domain/errors';
import { maintenanceRead } from '../../domain/operations/maintenance';
import { ssoSubdomainForEmail } from '../../domain/sso/email-check';
import { canonicalLabel } from '../../domain/tenants/hosts';
import { activeOnly, listMemberships } from '../../domain/tenants/memberships';
import LanguageSwitch from '../../islands/account/LanguageSwitch';
import LoginForm, { type LoginStep } from '../../islands/sign-in/LoginForm';
import { errorText } from '../../shared/error-codes';
import OutlookComplete from '../../islands/sign-in/OutlookComplete';
import Redirection from '../../islands/sign-in/Redirection';
import { safeContinuePath } from '../../shared/sign-in/continue-path';
import { afterTenantChosen, decideRedirection } from '../../shared/sign-in/redirection';
import { addinTokenSchema, emailQuerySchema, loginSchema } from '../../shared/schemas';
import { Island } from '../../ui/Island';
import { appPaths, appUrls, ssoStatusRead, type SsoStatus } from '../http/apps';
import { read, readAll } from '../../db/client';
import { ssoLookupLimit } from '../sso/http';
import { clientInfo, handoffTo, ssoLoginUrl } from './http';
import { decidingTenant, type AppEnv, type Ctx } from '../http/env';
import { answerOutcomeWithRedirect, destination, pageForm, readForm, redirectionInput, seeOther } from '../http/forms';
import { browserCookies, rememberedDeviceCookie } from '../http/cookies';
import { renderPage } from '../http/page';

export const loginPages = new Hono<AppEnv>();

/** A posted login form shown again: its step, what was typed, and what the server found wrong. */
interface PostedLogin {
  step: LoginStep;
  email: string;
  remember: boolean;
  alert?: string;
  /** The address an allowlist refused, named in the alert. */
  alertIp?: string;
  emailError?: string;
  passwordError?: string;
  wait?: number;
  status?: 200 | 400 | 401 | 403 | 422 | 429;
}

/**
 * Messages other pages send the user to login with (`?notice=`): password set, already verified,
 * 2FA failure, and a code page opened without a login waiting for its code.
 */
const LOGIN_NOTICES = ['password-set', 'already-verified', 'twofa-error', 'no-pending-login'] as const;
const ERROR_NOTICES: readonly string[] = ['twofa-error', 'no-pending-login'];

async function loginPage(c: Ctx, posted?: PostedLogin) {
  const deps = c.get('deps');
  const t = c.get('t');
  const lang = c.get('lang');
  const hostTenant = c.get('hostTenant');
  const user = c.get('user');
  const base = deps.config.BASE_PATH;
  const url = new URL(c.req.url);
  const continuePath = safeContinuePath(c.req.query('continue'), base, appPaths(deps.config));
  // What the page shows besides the form, in one round trip (issue 23).
  const { maintenance, sso } = await readAll(deps.db, {
    maintenance: maintenanceRead(deps.db, deps.clock.now(), lang),
    sso: user ? read({}, (): SsoStatus => 'none') : ssoStatusRead(c),
  });
  // Outlook add-in sign-in (spec 01 section 2): source=outlook, the add-in's token, a start URL.
  const source = c.req.query('source') === 'outlook' ? 'outlook' : null;
  const token = addinTokenSchema.safeParse({ token: c.req.query('token') }).success ? c.req.query('token')! : null;
  const startUrl = safeContinuePath(c.req.query('startUrl'), base, appPaths(deps.config));
  const notice = LOGIN_NOTICES.find((n) => n === c.req.query('notice')) ?? null;

  let main;
  if (user && source === 'outlook' && token) {
    main = <Island name="OutlookComplete" component={OutlookComplete} props={{ lang, basePath: base, token, startUrl, email: user.email }} />;
  } else if (user) {
    const memberships = activeOnly(c.get('memberships') ?? (await listMemberships(deps.db, user.id)));
    const input = {
      tenants: memberships.map((m) => ({ id: m.tenant.id, name: m.tenant.name, hostLabel: canonicalLabel(m.tenant), apps: m.apps, isAdmin: m.member.isAdmin })),
      hostTenantId: hostTenant?.id ?? null,
      isTenantManager: user.isTenantManager,
      continuePath,
      basePath: base,
      appUrls: appUrls(deps.config),
    };
    // One destination: straight there (the island would go at once; without JavaScript it could not).
    const to = destination(decideRedirection(input));
    if (to) return c.redirect(to, 302);
    main = <Island name="Redirection" component={Redirection} props={{ lang, input }} />;
  } else {
    // The main domain offers the SSO step as a page of its own too (`?step=sso`, the link of "Log in with SSO").
    const step = posted?.step ?? (!hostTenant && c.req.query('step') === 'sso' ? 'sso' : undefined);
    main = (
      <Island
        name="LoginForm"
        component={LoginForm}
        props={{
          lang,
          basePath: base,
          portalDomain: deps.config.PORTAL_DOMAIN,
          tenant: hostTenant ? { id: hostTenant.id, name: hostTenant.name } : null,
          ssoStatus: sso,
          continuePath,
          query: url.search,
          appUrls: appUrls(deps.config),
          source,
          token,
          startUrl,
          initialEmail: posted ? posted.email : emailQuerySchema.safeParse({ email: c.req.query('email') }).success ? c.req.query('email')! : null,
          ...(step ? { initialStep: step } : {}),
          ...(posted
            ? {
                initialRemember: posted.remember,
                initialAlert: posted.alert ?? null,
                ...(posted.alertIp ? { initialAlertIp: posted.alertIp } : {}),
                initialEmailError: posted.emailError ?? null,
                initialPasswordError: posted.passwordError ?? null,
                initialWait: posted.wait ?? 0,
              }
            : {}),
        }}
      />
    );
  }
  const notices = (Object.entries(maintenance) as [keyof typeof maintenance, string | null][]).filter(([, m]) => m);
  return renderPage(c, {
    titleKey: 'titles.login',
    status: posted?.status ?? 200,
    body: (
      <div className="flex min-h-screen flex-col">
        {notices.length > 0 && (
          <section aria-label={t('login.maintenance')} className="border-b border-amber-700 bg-amber-50 px-4 py-2 text-amber-950" data-testid="maintenance-banner">
            {notices.map(([app, message]) => (
              <p key={app} className="m-1">
                <strong>{t(`login.maintenanceApp.${app}`)}:</strong> {message}
              </p>
            ))}
          </section>
        )}
        <main className="flex flex-1 items-center justify-center p-4">
          <div className="w-full max-w-md rounded-lg bg-white p-8 shadow">
            <p className="m-0 text-center text-sm font-semibold text-blue-900">
              {t('product.suite')} {t('product.accounts')}
            </p>
            <h1 className="mb-6 mt-1 text-center text-2xl font-semibold">
              {hostTenant ? t('login.tenantHeading', { tenant: hostTenant.name }) : t('login.heading')}
            </h1>
            {notice && (
              <p
                role={ERROR_NOTICES.includes(notice) ? 'alert' : 'status'}
                className={`mb-4 rounded border p-3 ${ERROR_NOTICES.includes(notice) ? 'border-red-700 bg-red-50 text-red-900' : 'border-green-700 bg-green-50 text-green-900'}`}
                data-testid="login-notice"
              >
                {t(`login.notice.${notice}`)}
              </p>
            )}
            {main}
          </div>
        </main>
        <footer className="flex flex-wrap items-center justify-between gap-2 px-6 py-4 text-sm text-slate-700">
          <Island name="LanguageSwitch" component={LanguageSwitch} props={{ lang, basePath: base }} />
          <p className="m-0">{t('product.copyright', { year: new Date(deps.clock.now()).getUTCFullYear() })}</p>
        </footer>
      </div>
    ),
  });
}

loginPages.get('/login', (c) => loginPage(c));
loginPages.get('/', (c) => loginPage(c));

/** The steps of the login form posted without JavaScript; each answers what the island would show. */
loginPages.post('/login', ...pageForm, async (c) => {
  const deps = c.get('deps');
  const hostTenant = c.get('hostTenant');
  const base = deps.config.BASE_PATH;
  const url = new URL(c.req.url);
  // Signed in meanwhile (another tab): the redirection step, as a visit to login shows it.
  if (c.get('user')) return seeOther(c, `${base}/login${url.search}`);
  const form = await readForm(c);
  const step: LoginStep = form.step === 'email' && hostTenant ? 'email' : form.step === 'sso' && !hostTenant ? 'sso' : 'password';
  const email = form.email ?? '';
  const remember = form.remember === '1';
  const again = (p: Omit<PostedLogin, 'email' | 'remember'>) => loginPage(c, { email, remember, ...p });
  const relay = url.pathname + url.search;

  if (step === 'email' || step === 'sso') {
    const parsed = emailQuerySchema.safeParse({ email });
    if (!parsed.success) return again({ step, emailError: parsed.error.issues[0]!.message, status: 422 });
    try {
      // The same per-address limit as the API's SSO checks.
      await ssoLookupLimit(c, async () => {});
    } catch (e) {
      if (e instanceof AppError && e.status === 429) return again({ step, wait: Number(e.details.duration), status: 429 });
      throw e;
    }
    const subdomain = await ssoSubdomainForEmail(deps.db, parsed.data.email, step === 'email' ? hostTenant?.id : undefined);
    if (subdomain) return seeOther(c, ssoLoginUrl(c, subdomain, relay));
    // Next on a tenant host: the password step, the email locked. "Log in with SSO": not set up.
    return step === 'email' ? again({ step: 'password' }) : again({ step, alert: 'errors.sso-not-configured' });
  }

  const parsed = loginSchema.safeParse({ email, password: form.password ?? '', remember });
  if (!parsed.success) {
    const issue = (field: string) => parsed.error.issues.find((i) => i.path[0] === field)?.message;
    return again({ step, emailError: issue('email'), passwordError: issue('password') ? 'validation.required' : undefined, status: 422 });
  }
  const continuePath = safeContinuePath(c.req.query('continue'), base, appPaths(deps.config));
  const outlook = c.req.query('source') === 'outlook' && addinTokenSchema.safeParse({ token: c.req.query('token') }).success;
  let outcome;
  try {
    outcome = await login(deps, {
      email: parsed.data.email,
      password: parsed.data.password,
      remember: parsed.data.remember,
      hostTenant: decidingTenant(c),
      client: clientInfo(c),
      browser: browserCookies(c),
      rememberedDeviceToken: rememberedDeviceCookie(c),
    });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    if (e.status === 429) {
      c.header('Retry-After', String(e.details.duration));
      return again({ step, wait: Number(e.details.duration), status: 429 });
    }
    const status = e.status === 401 || e.status === 403 ? e.status : 400;
    const refusedIp = e.word === 'restricted-ip' && typeof e.details.ipAddress === 'string' ? e.details.ipAddress : undefined;
    return again({ step, alert: refusedIp ? 'errors.restricted-ip-address' : errorText(e.word), ...(refusedIp ? { alertIp: refusedIp } : {}), status });
  }
  return answerOutcomeWithRedirect(c, outcome, { query: url.search, continuePath, email, relay, outlook });
});

/** The organisation chooser posted without JavaScript: the same next step as the island's choice. */
loginPages.post('/login/organization', ...pageForm, async (c) => {
  const base = c.get('deps').config.BASE_PATH;
  const url = new URL(c.req.url);
  const login = `${base}/login${url.search}`;
  if (!c.get('user')) return seeOther(c, login);
  const form = await readForm(c);
  const continuePath = safeContinuePath(c.req.query('continue'), base, appPaths(c.get('deps').config));
  const input = await redirectionInput(c, continuePath);
  const tenant = input.tenants.find((x) => String(x.id) === form.tenant_id);
  if (!tenant) return seeOther(c, login);
  const decision = afterTenantChosen(input, tenant);
  if (decision.kind === 'go') return seeOther(c, decision.url);
  if (decision.kind === 'switch-tenant') return seeOther(c, (await handoffTo(c, decision.tenantId, decision.path)).url);
  return seeOther(c, login);
});
