// The per-request account rules for the session the request-auth statement read: the absolute
// lifetime, membership of this host's tenant (a deactivated membership ends access at once) and
// an enforced IP allowlist. Activity is recorded after the answer (at most once a minute).
// contextMiddleware calls admitSession in the same step that read the session, so a request is
// either signed in with every rule applied or not signed in at all.
import type { Context } from 'hono';
import { liveSession } from '../../domain/sign-in/sessions';
import type { RequestAuth } from '../../domain/sign-in/request-auth';
import { isAllowed } from '../../domain/security/ip-match';
import { scopedMemberships, sessionScope } from '../../domain/sign-in/scope';
import { inBackground } from '../http/background';
import type { AppEnv } from '../http/env';

/**
 * Sets session, user, member, scope and memberships when the session may be used on this host; leaves
 * them null when it may not. 'restricted-ip' when the person's address is not allowed here (the
 * caller answers the refusal).
 */
export function admitSession(c: Context<AppEnv>, found: NonNullable<RequestAuth['found']>): 'restricted-ip' | null {
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
  if (!live || !allowedHere) return null;
  if (found.allowlist && !isAllowed(c.get('clientIp'), found.allowlist)) return 'restricted-ip';
  // Whom the session speaks for is decided here, once: what it may see and do follows from it.
  const scope = sessionScope(live.session);
  c.set('session', live.session);
  c.set('user', user);
  c.set('member', member);
  c.set('scope', scope);
  c.set('memberships', scopedMemberships(scope, found.memberships));
  if (live.touch) inBackground(c, live.touch(), 'session_touch');
  return null;
}
