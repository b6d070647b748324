// Per-address rate limit for unauthenticated calls (SSO checks, link checks): counted in the
// database before the handler runs (reserve first), so parallel requests cannot pass the limit.
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../domain/errors';
import { reserve } from '../../domain/security/limiter';
import { addressKey } from '../../domain/security/network';
import type { AppEnv } from '../http/env';

export function limitPerAddress(name: string, max: number, windowMs: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { db, clock } = c.get('deps');
    try {
      await reserve(db, [{ key: `${name}:ip:${addressKey(c.get('clientIp'))}`, max, windowMs }], clock.now());
    } catch (e) {
      if (e instanceof AppError) c.header('Retry-After', String(e.details.duration));
      throw e;
    }
    return next();
  };
}
