// SSO result pages (spec 01 section 2): saml-login-error and saml-test-passed, each with a close
// button, in the frame of every other page (framed.tsx). The assertion consumer renders them directly (its answer may land on the initial host,
// where the admin running the test has no session); the GET routes serve them to signed-in users.
import { Hono } from 'hono';
import CloseWindow from '../../islands/sso/CloseWindow';
import { Island } from '../../ui/Island';
import { formatDateTime } from '../../shared/dates';
import { renderFramed } from '../http/framed';
import type { AppEnv, Ctx } from '../http/env';

/** `expiredAt`: the refusal was the IdP's certificate having ended (decision 0042): said so, with the date. */
export function samlResultPage(c: Ctx, kind: 'error' | 'passed', status: 200 | 400 | 403 | 404, expiredAt?: number) {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const base = deps.config.BASE_PATH;
  const titleKey = kind === 'passed' ? 'titles.saml-test-passed' : 'titles.saml-login-error';
  return renderFramed(c, {
    titleKey,
    status: status === 200 ? 200 : status,
    heading: t(titleKey),
    children: (
      <div className="flex flex-col gap-4">
        <p role={kind === 'error' ? 'alert' : 'status'} className="m-0">
          {t(kind === 'passed' ? 'sso.testPassed' : 'sso.loginError')}
        </p>
        {expiredAt !== undefined && (
          <p className="m-0" data-testid="sso-certificate-expired">
            {t('sso.certificateExpiredReason', { date: formatDateTime(expiredAt, lang) })}
          </p>
        )}
        <div className="flex items-center gap-4">
          <Island name="CloseWindow" component={CloseWindow} props={{ lang }} />
          {kind === 'error' && (
            <a className="text-blue-800 underline" href={`${base}/login`}>
              {t('common.backToLogin')}
            </a>
          )}
        </div>
      </div>
    ),
  });
}

export const samlPages = new Hono<AppEnv>();
samlPages.get('/saml-login-error', (c) => samlResultPage(c, 'error', 200));
samlPages.get('/saml-test-passed', (c) => samlResultPage(c, 'passed', 200));
