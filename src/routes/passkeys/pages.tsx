// The passkey screens (decision 0039): /passkeys (the person's own: list, add, rename, remove)
// and /setup-passkey-at-login (a passkey a tenant requires, added during the sign-in).
import { Hono } from 'hono';
import { listPasskeys, passkeyView } from '../../domain/passkeys/credentials';
import { passkeyRequired } from '../../domain/passkeys/policy';
import { listMemberships } from '../../domain/tenants/memberships';
import { PASSWORD_CHECK_TTL_MS } from '../../domain/twofa/setup';
import PasskeyManager from '../../islands/passkeys/PasskeyManager';
import SetupPasskeyAtLogin from '../../islands/passkeys/SetupPasskeyAtLogin';
import { Frame } from '../../ui/Frame';
import { Island } from '../../ui/Island';
import type { AppEnv } from '../http/env';
import { loadFrame } from '../http/frame-data';
import { renderPage } from '../http/page';
import { signedInPage } from '../middleware/guards';
import { backToLogin, pendingLogin, pendingStepPage, signInContext } from '../twofa/login-pages';

export const passkeyPages = new Hono<AppEnv>();

passkeyPages.get('/passkeys', signedInPage, async (c) => {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const user = c.get('user');
  const session = c.get('session');
  const base = deps.config.BASE_PATH;
  const now = deps.clock.now();
  const { data } = await loadFrame(c, user);
  const passkeys = (await listPasskeys(deps.db, user.id)).map(passkeyView);
  const verified = session.passwordVerifiedAt !== null && now - session.passwordVerifiedAt <= PASSWORD_CHECK_TTL_MS;
  return renderPage(c, {
    titleKey: 'titles.passkeys',
    body: (
      <Frame data={data}>
        <h1 className="mt-0 text-2xl font-semibold">{t('passkeys.manage.heading')}</h1>
        <p className="max-w-3xl">{t('passkeys.manage.intro')}</p>
        <Island name="PasskeyManager" component={PasskeyManager} props={{ lang, basePath: base, passkeys, hasPassword: user.passwordHash !== null, verified, now }} />
        <p className="mt-6">
          <a href={`${base}/my-account`} className="text-blue-800 underline">
            {t('common.backToMyAccount')}
          </a>
        </p>
      </Frame>
    ),
  });
});

passkeyPages.get('/setup-passkey-at-login', async (c) => {
  const pending = await pendingLogin(c, 'enrol_passkey');
  if (!pending) return backToLogin(c);
  const t = c.get('t');
  const hostTenant = c.get('hostTenant');
  const deps = c.get('deps');
  // Whose policy asks: this host's tenant, or (main domain) each organisation whose policy covers the person.
  const memberships = await listMemberships(deps.db, pending.user.id);
  const tenantNames = hostTenant ? [hostTenant.name] : memberships.filter((m) => passkeyRequired(null, [m])).map((m) => m.tenant.name);
  return pendingStepPage(
    c,
    'titles.setup-passkey-at-login',
    t('passkeys.enrol.heading'),
    <Island name="SetupPasskeyAtLogin" component={SetupPasskeyAtLogin} props={{ ...signInContext(c), tenantNames }} />,
  );
});
