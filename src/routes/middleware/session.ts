// Loads the session for this host and applies the per-request account rules: a deactivated
// membership or a client address outside an enforced allowlist ends access at once.
import { eq } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { whitelistedIps } from '../../db/schema';
import { validateSession } from '../../domain/auth/sessions';
import { isAllowed } from '../../domain/security/ip-allowlist';
import { renderErrorPage } from '../../ui/render';
import { cookieName, SESSION_COOKIE, type AppEnv } from '../env';

export const sessionMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = getCookie(c, cookieName(c, SESSION_COOKIE));
  if (token) {
    const { db, clock, config } = c.var.deps;
    const tenant = c.var.hostTenant;
    const auth = await validateSession(db, token, tenant?.id ?? null, clock.now(), {
      rememberDays: config.SESSION_REMEMBER_DAYS,
      idleMinutes: config.SESSION_IDLE_MINUTES,
      maxDays: config.SESSION_MAX_DAYS,
    });
    const member = auth?.member ?? null;
    // On a tenant host the user must be an active member, or a tenant manager (staff).
    const allowedHere = auth && (!tenant || (member ? member.deactivatedAt === null : auth.user.isTenantManager));
    if (auth && allowedHere) {
      if (tenant?.isIpRestrictionEnabled && member) {
        const allow = await db.select().from(whitelistedIps).where(eq(whitelistedIps.tenantId, tenant.id));
        if (!isAllowed(c.var.clientIp, allow)) {
          return c.req.path.startsWith(`${config.BASE_PATH}/api/`)
            ? c.json({ message: 'restricted-ip' }, 403)
            : renderErrorPage(c, 403, 'errors.restricted-ip');
        }
      }
      c.set('session', auth.session);
      c.set('user', auth.user);
      c.set('member', member);
    }
  }
  await next();
};
