// Node: the client address comes from the socket, or from one configured proxy header when the
// portal runs behind a trusted reverse proxy (TRUST_PROXY). A client-sent X-Forwarded-For is
// never read otherwise.
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config';
import type { RuntimePort } from '../deps';

export function nodeRuntime(config: Config): RuntimePort {
  const header = config.TRUST_PROXY === 'none' ? null : config.TRUST_PROXY;
  return {
    clientIp(req, env) {
      if (header) {
        const v = req.headers.get(header);
        // With X-Forwarded-For the proxy appends the address it saw: take the last hop.
        if (v) return v.split(',').pop()!.trim() || null;
      }
      const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
      return normalise(incoming?.socket.remoteAddress ?? null);
    },
    isHttps(req) {
      if (header && req.headers.get('x-forwarded-proto') === 'https') return true;
      return new URL(req.url).protocol === 'https:';
    },
    geo: () => null,
  };
}

function normalise(ip: string | null): string | null {
  return ip?.startsWith('::ffff:') ? ip.slice(7) : ip;
}
