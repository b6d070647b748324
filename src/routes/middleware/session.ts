// Applies the per-request account rules to the session contextMiddleware read: the absolute
// lifetime, membership of this host's tenant (a deactivated membership ends access at once) and
// an enforced IP allowlist. Activity is recorded after the answer (at most once a minute).
import type { Context, MiddlewareHandler } from 'hono';
import { liveSession } from '../../domain/auth/sessions';
import { isAllowed } from '../../domain/security/ip-allowlist';
import { renderErrorPage } from '../../ui/render';
import type { AppEnv } from '../env';

export const sessionMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  const found = c.get('requestAuth')?.found;
  if (found) {
    const { db, clock, config } = c.get('deps');
    const tenant = c.get('hostTenant');
    const { member, user } = found;
    const live = liveSession(db, found.session, member, clock.now(), {
      rememberDays: config.SESSION_REMEMBER_DAYS,
      idleMinutes: config.SESSION_IDLE_MINUTES,
      maxDays: config.SESSION_MAX_DAYS,
    });
    // On a tenant host the user must be an active member, or a tenant manager (staff).
    const allowedHere = live && (!tenant || (member ? member.deactivatedAt === null : user.isTenantManager));
    if (live && allowedHere) {
      if (found.allowlist && !isAllowed(c.get('clientIp'), found.allowlist)) {
        return c.req.path.startsWith(`${config.BASE_PATH}/api/`)
          ? c.json({ message: 'restricted-ip' }, 403)
          : renderErrorPage(c, 403, 'errors.restricted-ip');
      }
      c.set('session', live.session);
      c.set('user', user);
      c.set('member', member);
      c.set('memberships', found.memberships);
      if (live.touch) afterResponse(c, live.touch);
    }
  }
  await next();
};

/** Runs `work` once the answer is on its way: waitUntil on Workers, a detached promise on Node. */
function afterResponse(c: Context<AppEnv>, work: () => Promise<unknown>): void {
  const logged = () =>
    work().catch((e) => console.error(JSON.stringify({ level: 'error', event: 'session_touch_failed', requestId: c.get('requestId'), error: String(e) })));
  let ctx: { waitUntil(p: Promise<unknown>): void } | undefined;
  try {
    ctx = c.executionCtx;
  } catch {
    ctx = undefined; // Node: no execution context; the process outlives the answer anyway.
  }
  if (ctx) ctx.waitUntil(logged());
  else void logged();
}
