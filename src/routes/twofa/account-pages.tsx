// The account's two-factor screens (spec 01 "Two-factor setup during login and in the account"):
// /verify-password (the password again, then on to ?redirect=, default twofa) and /twofa (the
// setup stepper, or the status and "turn off" when two-factor is on). Both are authenticated and
// closed to SSO users by the page guard (src/shared/routes.ts). /twofa needs the password check of
// the last 15 minutes that its calls need (src/domain/twofa/setup.ts); without it the browser is
// sent to the check first.
import { Hono } from 'hono';
import { assertRecentPassword } from '../../domain/twofa/setup';
import BackupCodesRegenerate from '../../islands/twofa/BackupCodesRegenerate';
import TwofaDisable from '../../islands/twofa/TwofaDisable';
import TwofaSetup from '../../islands/twofa/TwofaSetup';
import VerifyPasswordForm from '../../islands/twofa/VerifyPasswordForm';
import { safeContinuePath } from '../../shared/sign-in/continue-path';
import { Frame } from '../../ui/Frame';
import { Island } from '../../ui/Island';
import { appPaths } from '../http/apps';
import type { AppEnv } from '../http/env';
import { loadFrame } from '../http/frame-data';
import { renderPage } from '../http/page';
import { signedInPage } from '../middleware/guards';

export const twofaPages = new Hono<AppEnv>();

/** "+819012345678" -> "+81 ••••••5678": enough to recognise one's own number on screen. */
function maskedNumber(e164: string | null): string | null {
  if (!e164) return null;
  const digits = e164.replace(/^\+/, '');
  return `+${'•'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
}

/**
 * Where /verify-password goes on: the redirect query "twofa" (the default), or a same-portal path;
 * anything else (another origin, a scheme, garbage) is the default (no open redirect).
 */
export function verifyPasswordTarget(raw: string | undefined, basePath: string, appPaths: string[]): { redirect: string; next: string } {
  const fallback = { redirect: 'twofa', next: `${basePath}/twofa` };
  if (raw === undefined || raw === 'twofa') return fallback;
  const path = safeContinuePath(raw, basePath, appPaths);
  return path ? { redirect: raw, next: path } : fallback;
}

twofaPages.get('/verify-password', signedInPage, async (c) => {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const { data } = await loadFrame(c, c.get('user'));
  const target = verifyPasswordTarget(c.req.query('redirect'), deps.config.BASE_PATH, appPaths(deps.config));
  return renderPage(c, {
    titleKey: 'titles.verify-password',
    body: (
      <Frame data={data}>
        <div className="max-w-md">
          <h1 className="mt-0 text-2xl font-semibold">{t('verifyPassword.heading')}</h1>
          <p>{t('verifyPassword.intro')}</p>
          <Island name="VerifyPasswordForm" component={VerifyPasswordForm} props={{ lang, basePath: deps.config.BASE_PATH, redirect: target.redirect, next: target.next }} />
        </div>
      </Frame>
    ),
  });
});

twofaPages.get('/twofa', signedInPage, async (c) => {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const user = c.get('user');
  const base = deps.config.BASE_PATH;
  try {
    assertRecentPassword(c.get('session'), deps.clock.now());
  } catch {
    return c.redirect(`${base}/verify-password?redirect=twofa`, 302);
  }
  const { data } = await loadFrame(c, c.get('user'));
  const method = user.twofaMethod;
  return renderPage(c, {
    titleKey: 'titles.twofa',
    body: (
      <Frame data={data}>
        <h1 className="mt-0 text-2xl font-semibold">{t('twofa.heading')}</h1>
        {method ? (
          <section aria-labelledby="twofa-status-title" className="max-w-2xl rounded-lg bg-white p-6 shadow" data-testid="twofa-status">
            <h2 id="twofa-status-title" className="m-0 text-xl font-semibold">
              {t('twofa.statusOn')}
            </h2>
            <p>{t('twofa.statusMethod', { method: t(method === 'app' ? 'twofa.methodApp' : 'twofa.methodSms') })}</p>
            {method === 'sms' && maskedNumber(user.contactNumber) && <p>{t('twofa.statusSmsTo', { number: maskedNumber(user.contactNumber) })}</p>}
            <div className="mt-4 flex flex-wrap items-center gap-4">
              <Island name="BackupCodesRegenerate" component={BackupCodesRegenerate} props={{ lang, basePath: base, email: user.email }} />
              <Island name="TwofaDisable" component={TwofaDisable} props={{ lang, basePath: base }} />
              <a href={`${base}/my-account`} className="text-blue-800 underline">
                {t('common.backToMyAccount')}
              </a>
            </div>
          </section>
        ) : (
          <>
            <p className="max-w-2xl">{t('twofa.intro')}</p>
            <Island name="TwofaSetup" component={TwofaSetup} props={{ lang, basePath: base, email: user.email }} />
          </>
        )}
      </Frame>
    ),
  });
});
