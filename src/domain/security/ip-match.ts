// IP allowlist matching with ipaddr.js (CIDR parsing is not ours to hand-write).
import ipaddr from 'ipaddr.js';

export interface AllowEntry {
  ipAddress: string;
  prefixLength: number;
}

export function isAllowed(clientIp: string | null, entries: AllowEntry[]): boolean {
  if (!clientIp || !ipaddr.isValid(clientIp)) return false;
  let addr = ipaddr.parse(clientIp);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  }
  if (addr.kind() !== 'ipv4') return false;
  return entries.some((e) => {
    if (!ipaddr.IPv4.isValid(e.ipAddress)) return false;
    return (addr as ipaddr.IPv4).match(ipaddr.IPv4.parse(e.ipAddress), e.prefixLength);
  });
}
