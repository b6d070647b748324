// The rules for URLs the server itself fetches on an admin's word (IdP metadata, decision 0042),
// the same on Workers, Node and Deno: https only, no credentials in the URL, the default port,
// no address outside the public unicast space (private, loopback, link-local, CGNAT, multicast,
// documentation and the other special-use ranges, by ipaddr.js's range table), a size and a time
// limit, and redirects followed here one hop at a time, each hop checked again. Runtimes that can
// resolve names check every address the name resolves to and connect to the one checked.
import ipaddr from 'ipaddr.js';
import type { OutboundHttp } from '../../deps';

export interface OutboundLimits {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /** Development only (DEV_SSO_METADATA_LOOPBACK under DEV_MODE): loopback is let through. */
  allowLoopback: boolean;
}

export type OutboundProblem = 'https-only' | 'address-refused' | 'unreachable' | 'timeout' | 'http-status' | 'too-large' | 'too-many-redirects';

export class OutboundRefused extends Error {
  constructor(readonly problem: OutboundProblem) {
    super(`outbound refused: ${problem}`);
    this.name = 'OutboundRefused';
  }
}

/** Whether an IP address may be fetched: public unicast only (loopback when allowed). */
export function refusedAddress(ip: string, allowLoopback: boolean): boolean {
  const bare = ip.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return true;
  let addr = ipaddr.parse(bare);
  // ::ffff:10.0.0.1 and friends are the IPv4 address they carry.
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  const range = addr.range();
  if (range === 'unicast') return false;
  return !(allowLoopback && range === 'loopback');
}

/** Names that are this machine or a local network whatever DNS says (workerd cannot resolve). */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.lan', '.intranet', '.corp'];

/** Refusals decided from the URL alone (every runtime; the only ones workerd can make). */
export function checkUrl(raw: string | URL, limits: Pick<OutboundLimits, 'allowLoopback'>): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused('https-only');
  }
  if (url.protocol !== 'https:' || url.username || url.password) throw new OutboundRefused('https-only');
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const literal = host.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(literal)) {
    if (refusedAddress(literal, limits.allowLoopback)) throw new OutboundRefused('address-refused');
    return url;
  }
  const local = host === 'localhost' || LOCAL_SUFFIXES.some((s) => host.endsWith(s)) || !host.includes('.');
  if (local && !(limits.allowLoopback && (host === 'localhost' || host.endsWith('.localhost')))) throw new OutboundRefused('address-refused');
  // A non-default port is allowed only in development (the test IdP listens on a free port).
  if (url.port && url.port !== '443' && !limits.allowLoopback) throw new OutboundRefused('address-refused');
  return url;
}

/** GET `raw` by the rules above; the body as text. */
export async function fetchOutbound(http: OutboundHttp, raw: string, limits: OutboundLimits): Promise<string> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  const refused = (ip: string) => refusedAddress(ip, limits.allowLoopback);
  try {
    let url = checkUrl(raw, limits);
    for (let hop = 0; ; hop++) {
      let res;
      try {
        res = await http.get(url, { signal: controller.signal, refused });
      } catch (e) {
        if (e instanceof OutboundRefused) throw e;
        throw new OutboundRefused(controller.signal.aborted ? 'timeout' : 'unreachable');
      }
      if ([301, 302, 303, 307, 308].includes(res.status)) {
        res.cancel();
        if (hop >= limits.maxRedirects || !res.location) throw new OutboundRefused('too-many-redirects');
        url = checkUrl(new URL(res.location, url), limits);
        continue;
      }
      if (res.status !== 200 || !res.body) {
        res.cancel();
        throw new OutboundRefused('http-status');
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      try {
        for await (const chunk of res.body) {
          size += chunk.byteLength;
          if (size > limits.maxBytes) {
            res.cancel();
            throw new OutboundRefused('too-large');
          }
          chunks.push(chunk);
        }
      } catch (e) {
        if (e instanceof OutboundRefused) throw e;
        throw new OutboundRefused(controller.signal.aborted ? 'timeout' : 'unreachable');
      }
      const all = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) {
        all.set(c, at);
        at += c.byteLength;
      }
      return new TextDecoder('utf-8').decode(all);
    }
  } finally {
    clearTimeout(timer);
  }
}
