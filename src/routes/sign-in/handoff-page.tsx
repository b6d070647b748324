// Target side of a host hand-off: exchange the one-time code (bound to this browser) and go on
// as completeSignIn decides: this host's own session, or a pending step (a 2FA setup the tenant
// enforces, a code) on this host's login pages.
import { Hono } from 'hono';
import { exchangeHandoff } from '../../domain/sign-in/handoff';
import { AppError } from '../../domain/errors';
import { safeContinuePath } from '../../shared/sign-in/continue-path';
import { pendingStepUrl } from '../../shared/sign-in/signed-in';
import { appPaths } from '../http/apps';
import type { AppEnv } from '../http/env';
import { clientInfo, setSignInCookies, takeHandoffBinding } from './http';
import { browserCookies, setChallengeCookie } from '../http/cookies';
import { renderErrorPage } from '../http/page';

export const handoffPages = new Hono<AppEnv>();

handoffPages.get('/handoff', async (c) => {
  const deps = c.get('deps');
  const hostTenant = c.get('hostTenant');
  const base = deps.config.BASE_PATH;
  if (!hostTenant) return renderErrorPage(c, 400, 'errors.handoff-invalid');
  const code = c.req.query('code') ?? '';
  try {
    const { outcome, path } = await exchangeHandoff(deps, {
      code,
      hostTenantId: hostTenant.id,
      client: clientInfo(c),
      binding: takeHandoffBinding(c, code),
      browser: browserCookies(c),
    });
    c.header('Referrer-Policy', 'no-referrer');
    const next = safeContinuePath(path, base, appPaths(deps.config)) ?? `${base}/my-account`;
    if (outcome.kind === 'session') {
      setSignInCookies(c, outcome);
      return c.redirect(next, 302);
    }
    const q = `?continue=${encodeURIComponent(next)}`;
    if (outcome.kind === 'redirect-to-sso') return c.redirect(`${base}/login${q}`, 302);
    setChallengeCookie(c, outcome.challengeToken);
    return c.redirect(pendingStepUrl(outcome.message, base, q) ?? `${base}/login${q}`, 302);
  } catch (e) {
    if (e instanceof AppError) return renderErrorPage(c, 400, 'errors.handoff-invalid');
    throw e;
  }
});
