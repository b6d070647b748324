// The "network" a request comes from, for the additional-challenge rule: the IPv4 /24 or the
// IPv6 /48 around the client address (a household, office or mobile carrier block).
import ipaddr from 'ipaddr.js';

export function networkOf(ip: string | null): string | null {
  if (!ip || !ipaddr.isValid(ip)) return null;
  let a = ipaddr.parse(ip);
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address();
  if (a.kind() === 'ipv4') return `${a.toByteArray().slice(0, 3).join('.')}.0/24`;
  const parts = (a as ipaddr.IPv6).parts.slice(0, 3).map((p) => p.toString(16));
  return `${parts.join(':')}::/48`;
}

/**
 * The key a per-address limit counts under: the IPv4 address itself, or the IPv6 /64 around it
 * (one subscriber usually holds a whole /64, so per-address counting of IPv6 is trivially evaded).
 */
export function addressKey(ip: string | null): string {
  if (!ip || !ipaddr.isValid(ip)) return 'unknown';
  let a = ipaddr.parse(ip);
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address();
  if (a.kind() === 'ipv4') return a.toString();
  const parts = (a as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}
