// Runtimes that accept connections themselves (Node, Deno): the client address comes from the
// connection, or from one configured proxy header when the portal runs behind a trusted reverse
// proxy (TRUST_PROXY). A client-sent X-Forwarded-For is never read otherwise.
import type { Config } from '../config';
import type { RuntimePort } from '../deps';

/**
 * `socketAddress` reads the peer's address from what the entry passes as the app's env;
 * `rawHeaders` the request's headers as the server parsed them, where it has them (Node), so that
 * no Headers object is built for them.
 */
export function serverRuntime(
  config: Config,
  socketAddress: (env: unknown) => string | null | undefined,
  rawHeaders: (env: unknown) => Record<string, string | string[] | undefined> | undefined = () => undefined,
): RuntimePort {
  const proxyHeader = config.TRUST_PROXY === 'none' ? null : config.TRUST_PROXY.toLowerCase();
  const header = (req: Request, env: unknown, name: string): string | undefined => {
    const raw = rawHeaders(env);
    if (!raw) return req.headers.get(name) ?? undefined;
    const v = raw[name];
    // Node joins repeated headers itself (cookies with "; "), except Set-Cookie, which no request has.
    return Array.isArray(v) ? v.join(', ') : v;
  };
  return {
    header,
    // No platform in front names requests here: a client-sent CF-Ray is not an id to log.
    requestId: () => null,
    clientIp(req, env) {
      if (proxyHeader) {
        const v = header(req, env, proxyHeader);
        // With X-Forwarded-For the proxy appends the address it saw: take the last hop.
        if (v) return v.split(',').pop()!.trim() || null;
      }
      const ip = socketAddress(env) ?? null;
      return ip?.startsWith('::ffff:') ? ip.slice(7) : ip;
    },
    isHttps(req, env) {
      if (proxyHeader && header(req, env, 'x-forwarded-proto') === 'https') return true;
      return req.url.startsWith('https:');
    },
    geo: () => null,
  };
}
