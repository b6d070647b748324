// First middleware: deps, request id, nonce, client address, protocol, host -> tenant.
import type { MiddlewareHandler } from 'hono';
import type { Deps } from '../../deps';
import { resolveHost } from '../../domain/tenants/hosts';
import { randomToken } from '../../domain/security/tokens';
import type { AppEnv } from '../env';
import { renderErrorPage } from '../../ui/render';
import { anonymousLang, setLang } from './locale';

export function contextMiddleware(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('deps', deps);
    c.set('requestId', c.req.header('cf-ray') ?? randomToken(9));
    c.set('nonce', randomToken(16));
    c.set('https', deps.runtime.isHttps(c.req.raw));
    c.set('clientIp', deps.runtime.clientIp(c.req.raw, c.env));
    c.set('session', null);
    c.set('user', null);
    c.set('member', null);
    c.set('route', null);
    setLang(c, anonymousLang(c));
    // The tenant comes from the URL's hostname (the Host header on Node; workerd's SELF.fetch
    // sends no Host header, only the URL).
    const hostname = new URL(c.req.url).hostname;
    const host = await resolveHost(deps.db, hostname, deps.config.PORTAL_DOMAIN);
    if (host.kind === 'unknown') {
      c.set('hostTenant', null);
      return c.req.path.startsWith(`${deps.config.BASE_PATH}/api/`)
        ? c.json({ message: 'unknown-host' }, 404)
        : renderErrorPage(c, 404, 'errors.unknown-host');
    }
    c.set('hostTenant', host.kind === 'tenant' ? host.tenant : null);
    await next();
  };
}
