// IP allowlist matching with ipaddr.js (CIDR parsing is not ours to hand-write). The one matcher
// of the allowlist: sign-in, sessions, the lock-out rules and any preview of them call this.
import ipaddr from 'ipaddr.js';

export interface AllowEntry {
  ipAddress: string;
  prefixLength: number;
}

/**
 * Whether `clientIp` lies in one of the entries. Families never cross: an IPv4-mapped client
 * (::ffff:203.0.113.5, what a dual-stack socket reports for an IPv4 peer) is the IPv4 address and
 * matches IPv4 entries only; an IPv6 entry never matches an IPv4 client, nor the reverse.
 */
export function isAllowed(clientIp: string | null, entries: AllowEntry[]): boolean {
  if (!clientIp || !ipaddr.isValid(clientIp)) return false;
  let addr = ipaddr.parse(clientIp);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  }
  return entries.some((e) => {
    if (addr.kind() === 'ipv4') {
      if (!ipaddr.IPv4.isValid(e.ipAddress) || e.prefixLength < 0 || e.prefixLength > 32) return false;
      return (addr as ipaddr.IPv4).match(ipaddr.IPv4.parse(e.ipAddress), e.prefixLength);
    }
    if (!ipaddr.IPv6.isValid(e.ipAddress) || e.prefixLength < 0 || e.prefixLength > 128) return false;
    const net = ipaddr.IPv6.parse(e.ipAddress);
    // A stored ::ffff:x entry is refused at entry; never let one match IPv6 clients either.
    if (net.isIPv4MappedAddress()) return false;
    return (addr as ipaddr.IPv6).match(net, e.prefixLength);
  });
}
