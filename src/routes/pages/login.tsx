// Login screen (spec 01 "Login screen"); a signed-in visitor goes straight to the redirection step.
import { Hono } from 'hono';
import { currentMaintenanceMessages } from '../../domain/maintenance';
import { canonicalLabel } from '../../domain/tenants/hosts';
import { activeOnly, listMemberships } from '../../domain/tenants/memberships';
import LanguageSwitch from '../../islands/LanguageSwitch';
import LoginForm from '../../islands/LoginForm';
import OutlookComplete from '../../islands/OutlookComplete';
import Redirection from '../../islands/Redirection';
import { safeContinuePath } from '../../shared/continue-path';
import { addinTokenSchema, emailQuerySchema } from '../../shared/schemas';
import { Island } from '../../ui/Island';
import { renderPage } from '../../ui/render';
import { appPaths, appUrls, ssoStatus } from '../api/helpers';
import type { AppEnv, Ctx } from '../env';

export const loginPages = new Hono<AppEnv>();

/** Messages other pages send the user to login with (`?notice=`): password set, already verified, 2FA failure. */
const LOGIN_NOTICES = ['password-set', 'already-verified', 'twofa-error'] as const;
const ERROR_NOTICES: readonly string[] = ['twofa-error'];

async function loginPage(c: Ctx) {
  const { deps, t, lang, hostTenant, user } = c.var;
  const base = deps.config.BASE_PATH;
  const url = new URL(c.req.url);
  const continuePath = safeContinuePath(c.req.query('continue'), base, appPaths(deps.config));
  const maintenance = await currentMaintenanceMessages(deps.db, deps.clock.now(), lang);
  // Outlook add-in sign-in (spec 01 section 2): source=outlook, the add-in's token, a start URL.
  const source = c.req.query('source') === 'outlook' ? 'outlook' : null;
  const token = addinTokenSchema.safeParse({ token: c.req.query('token') }).success ? c.req.query('token')! : null;
  const startUrl = safeContinuePath(c.req.query('startUrl'), base, appPaths(deps.config));
  const notice = LOGIN_NOTICES.find((n) => n === c.req.query('notice')) ?? null;

  let main;
  if (user && source === 'outlook' && token) {
    main = <Island name="OutlookComplete" component={OutlookComplete} props={{ lang, basePath: base, token, startUrl, email: user.email }} />;
  } else if (user) {
    const memberships = activeOnly(await listMemberships(deps.db, user.id));
    main = (
      <Island
        name="Redirection"
        component={Redirection}
        props={{
          lang,
          input: {
            tenants: memberships.map((m) => ({ id: m.tenant.id, name: m.tenant.name, hostLabel: canonicalLabel(m.tenant), apps: m.apps })),
            hostTenantId: hostTenant?.id ?? null,
            isTenantManager: user.isTenantManager,
            continuePath,
            basePath: base,
            appUrls: appUrls(deps.config),
          },
        }}
      />
    );
  } else {
    main = (
      <Island
        name="LoginForm"
        component={LoginForm}
        props={{
          lang,
          basePath: base,
          portalDomain: deps.config.PORTAL_DOMAIN,
          tenant: hostTenant ? { id: hostTenant.id, name: hostTenant.name } : null,
          ssoStatus: await ssoStatus(c),
          continuePath,
          query: url.search,
          appUrls: appUrls(deps.config),
          source,
          token,
          startUrl,
          initialEmail: emailQuerySchema.safeParse({ email: c.req.query('email') }).success ? c.req.query('email')! : null,
        }}
      />
    );
  }
  const notices = (Object.entries(maintenance) as [keyof typeof maintenance, string | null][]).filter(([, m]) => m);
  return renderPage(c, {
    titleKey: 'titles.login',
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
          <Island name="LanguageSwitch" component={LanguageSwitch} props={{ lang }} />
          <p className="m-0">{t('product.copyright', { year: new Date(deps.clock.now()).getUTCFullYear() })}</p>
        </footer>
      </div>
    ),
  });
}

loginPages.get('/login', loginPage);
loginPages.get('/', loginPage);
