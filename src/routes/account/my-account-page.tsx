// My account (spec 01 "My account"): change password and two-factor (not for SSO users),
// session devices, language, and the unverified-email banner. The device list comes with the
// page (island props: no spinner on first paint); the list entry jumps to it. A session a
// tenant's IdP made sees what belongs to that tenant only, and the page says how to do the rest
// (decision 0035).
import { Hono } from 'hono';
import { devicesRead } from '../../domain/account/devices';
import { invitationsRead } from '../../domain/account/invitations';
import { passkeyCountRead } from '../../domain/passkeys/credentials';
import { read, readAll } from '../../db/client';
import { publicOrigin } from '../../domain/tenants/hosts';
import ChangePasswordLauncher from '../../islands/account/ChangePasswordLauncher';
import LanguageSetting from '../../islands/account/LanguageSetting';
import SessionDevices, { type SessionDeviceList } from '../../islands/account/SessionDevices';
import UnverifiedEmailBanner from '../../islands/account/UnverifiedEmailBanner';
import { Frame } from '../../ui/Frame';
import { Island } from '../../ui/Island';
import type { AppEnv, SignedInCtx } from '../http/env';
import { isSsoUser, signedInPage } from '../middleware/guards';
import { loadFrame } from '../http/frame-data';
import { rememberedDeviceCookie } from '../http/cookies';
import { renderPage } from '../http/page';

export const accountPages = new Hono<AppEnv>();

async function myAccount(c: SignedInCtx) {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const user = c.get('user');
  const scope = c.get('scope');
  const base = deps.config.BASE_PATH;
  const { data } = await loadFrame(c, user);
  const personal = scope.kind === 'person';
  const tenantName = c.get('hostTenant')?.name ?? '';
  const sso = isSsoUser(c) || !personal;
  // The screen's data in one round trip after the principal's (issue 23).
  const { invitations: pending, devices: all, passkeys } = await readAll(deps.db, {
    invitations: personal ? invitationsRead(deps.db, user.id) : read({}, () => []),
    devices: devicesRead(deps, c.get('session'), scope, rememberedDeviceCookie(c)),
    passkeys: sso ? read({}, () => 0) : passkeyCountRead(deps.db, user.id),
  });
  const invitations = pending.length;
  // Only what the screen shows goes into the page (the API answer also carries the address).
  const view = ({ id, agent, location, lastActivity }: SessionDeviceList['currentSession']) => ({ id, agent, location, lastActivity });
  const devices: SessionDeviceList = {
    scope: all.scope,
    currentSession: view(all.currentSession),
    otherSessions: all.otherSessions.map(view),
    rememberedDevices: all.rememberedDevices,
  };
  const item = 'flex items-center justify-between border-b border-slate-200 px-4 py-3';
  return renderPage(c, {
    titleKey: 'titles.my-account',
    body: (
      <Frame data={data}>
        <h1 className="mt-0 text-2xl font-semibold">{t('myAccount.heading')}</h1>
        {user.emailVerifiedAt === null && (
          <Island name="UnverifiedEmailBanner" component={UnverifiedEmailBanner} props={{ lang, basePath: base, userId: user.id, email: user.email }} />
        )}
        <p className="text-slate-700" data-testid="signed-in-as">
          {t('myAccount.signedInAs', { name: user.name, email: user.email })}
        </p>
        {tenantName && <p className="text-slate-700">{t('myAccount.organization', { tenant: tenantName })}</p>}
        {!personal && (
          <section aria-labelledby="account-scope-title" className="mb-4 max-w-2xl rounded border border-blue-700 bg-blue-50 p-4 text-blue-950" data-testid="account-scope">
            <h2 id="account-scope-title" className="m-0 text-base font-semibold">
              {t('myAccount.scope.title', { tenant: tenantName })}
            </h2>
            <p className="mb-2 mt-1">{t('myAccount.scope.text', { tenant: tenantName })}</p>
            <a className="text-blue-900 underline" href={`${publicOrigin(deps.config.PUBLIC_URL, null)}${base}/login?continue=${encodeURIComponent(`${base}/my-account`)}`}>
              {t('myAccount.scope.signIn')}
            </a>
          </section>
        )}
        {invitations > 0 && (
          <p className="rounded border border-blue-700 bg-blue-50 p-3 text-blue-900" data-testid="invitations-notice">
            <a className="text-blue-900 underline" href={`${base}/invitations`}>
              {t('myAccount.invitations', { count: invitations })}
            </a>
          </p>
        )}
        <ul className="m-0 max-w-2xl list-none rounded-lg bg-white p-0 shadow">
          {!sso && (
            <li className={item}>
              <Island name="ChangePasswordLauncher" component={ChangePasswordLauncher} props={{ lang, basePath: base, email: user.email }} />
            </li>
          )}
          {!sso && (
            <li className={item}>
              <a className="text-blue-800 underline" href={`${base}/verify-password?redirect=twofa`}>
                {t('myAccount.twofa')}
              </a>
              <span className={`rounded px-2 py-0.5 text-sm ${user.twofaMethod ? 'bg-green-100 text-green-900' : 'bg-slate-200 text-slate-800'}`}>
                {t(user.twofaMethod ? 'myAccount.enabled' : 'myAccount.disabled')}
              </span>
            </li>
          )}
          {!sso && (
            <li className={item}>
              <a className="text-blue-800 underline" href={`${base}/passkeys`} data-testid="my-account-passkeys">
                {t('myAccount.passkeys')}
              </a>
              <span className={`rounded px-2 py-0.5 text-sm ${passkeys > 0 ? 'bg-green-100 text-green-900' : 'bg-slate-200 text-slate-800'}`}>
                {passkeys > 0 ? t('myAccount.passkeyCount', { count: passkeys }) : t('myAccount.noPasskeys')}
              </span>
            </li>
          )}
          <li className={item}>
            <a className="text-blue-800 underline" href="#session-devices-heading">
              {t('myAccount.sessionDevices')}
            </a>
          </li>
          <li className={item}>
            <Island name="LanguageSetting" component={LanguageSetting} props={{ lang, basePath: base }} />
          </li>
        </ul>
        <Island name="SessionDevices" component={SessionDevices} props={{ lang, basePath: base, devices, twofaEnabled: Boolean(user.twofaMethod), now: c.get('deps').clock.now(), tenantName: personal ? null : tenantName }} />
      </Frame>
    ),
  });
}

accountPages.get('/my-account', signedInPage, myAccount);
accountPages.get('/security', signedInPage, myAccount);
