// Runtimes that accept connections themselves (Node, Deno): the client address comes from the
// connection, or from one configured proxy header when the portal runs behind a trusted reverse
// proxy (TRUST_PROXY). A client-sent X-Forwarded-For is never read otherwise.
import type { Config } from '../config';
import type { RuntimePort } from '../deps';

/** `socketAddress` reads the peer's address from what the entry passes as the app's env. */
export function serverRuntime(config: Config, socketAddress: (env: unknown) => string | null | undefined): RuntimePort {
  const header = config.TRUST_PROXY === 'none' ? null : config.TRUST_PROXY;
  return {
    clientIp(req, env) {
      if (header) {
        const v = req.headers.get(header);
        // With X-Forwarded-For the proxy appends the address it saw: take the last hop.
        if (v) return v.split(',').pop()!.trim() || null;
      }
      const ip = socketAddress(env) ?? null;
      return ip?.startsWith('::ffff:') ? ip.slice(7) : ip;
    },
    isHttps(req) {
      if (header && req.headers.get('x-forwarded-proto') === 'https') return true;
      return req.url.startsWith('https:');
    },
    geo: () => null,
  };
}
