// Target side of a host hand-off: exchange the one-time code for this host's own session.
import { Hono } from 'hono';
import { exchangeHandoff } from '../../domain/auth/handoff';
import { AppError } from '../../domain/errors';
import { safeContinuePath } from '../../shared/continue-path';
import { renderErrorPage } from '../../ui/render';
import { appPaths } from '../api/helpers';
import { setSessionCookie } from '../cookies';
import type { AppEnv } from '../env';
import { clientInfo } from '../auth-helpers';

export const handoffPages = new Hono<AppEnv>();

handoffPages.get('/handoff', async (c) => {
  const { deps, hostTenant } = c.var;
  const base = deps.config.BASE_PATH;
  if (!hostTenant) return renderErrorPage(c, 400, 'errors.handoff-invalid');
  try {
    const r = await exchangeHandoff(deps, c.req.query('code') ?? '', hostTenant, clientInfo(c));
    setSessionCookie(c, r.token, r.remember, r.expiresAt);
    c.header('Referrer-Policy', 'no-referrer');
    return c.redirect(safeContinuePath(r.path, base, appPaths(deps.config)) ?? `${base}/my-account`, 302);
  } catch (e) {
    if (e instanceof AppError) return renderErrorPage(c, 400, 'errors.handoff-invalid');
    throw e;
  }
});
