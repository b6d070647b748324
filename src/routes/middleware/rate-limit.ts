// Per-address rate limit for unauthenticated lookups (SSO checks): counted in the database.
import type { MiddlewareHandler } from 'hono';
import { hit, retryAfter } from '../../domain/security/throttle';
import type { AppEnv } from '../env';

export function limitPerAddress(name: string, max: number, windowMs: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { db, clock } = c.var.deps;
    const limit = { key: `${name}:ip:${c.var.clientIp ?? 'unknown'}`, max, windowMs };
    const now = clock.now();
    const wait = await retryAfter(db, limit, now);
    if (wait > 0) {
      c.header('Retry-After', String(wait));
      return c.json({ message: 'too-many-attempts', duration: wait }, 429);
    }
    await hit(db, limit, now);
    return next();
  };
}
