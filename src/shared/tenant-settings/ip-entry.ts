// IP allowlist entries (spec 02 "IP entry"; IPv6 by decision 0045), shared by the admin screen and
// the server. Its own file: ipaddr.js goes only to the pages that parse addresses, not to every
// tenant-settings island.
import ipaddr from 'ipaddr.js';

/** Four dotted groups of 1-3 digits, optional /1../32 (spec 02 "IP entry"). */
export const IP_ENTRY_PATTERN = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/;

/** An IPv6 entry: an address ipaddr.js accepts (no zone), optional /32../128 (decision 0045). */
const IPV6_ENTRY_PATTERN = /^([0-9A-Fa-f:.]+)(?:\/(\d{1,3}))?$/;

export type IpEntry = { ipAddress: string; prefixLength: number; family: 'ipv4' | 'ipv6' };
/**
 * 'invalid' and 'local' are the spec's two messages (IPv4 exactly as spec 02 says; "::1" is IPv6's
 * 127.x). IPv6 only: 'not-public' for documentation, link-local, unique-local and every other
 * range outside global unicast (the server refuses them, as it refuses non-public IPv4), 'mapped'
 * for ::ffff:a.b.c.d (the dotted IPv4 form is the one to type).
 */
export type IpEntryProblem = 'invalid' | 'local' | 'not-public' | 'mapped';

export function parseIpEntry(value: string): IpEntry | IpEntryProblem {
  const text = value.trim();
  if (text.includes(':')) return parseIpv6Entry(text);
  const m = IP_ENTRY_PATTERN.exec(text);
  if (!m) return 'invalid';
  const octets = m.slice(1, 5).map(Number);
  if (octets.some((o) => o > 255)) return 'invalid';
  const prefix = m[5] === undefined ? 32 : Number(m[5]);
  if (prefix < 1 || prefix > 32) return 'invalid';
  if (octets[0] === 127) return 'local';
  return { ipAddress: octets.join('.'), prefixLength: prefix, family: 'ipv4' };
}

/** 3fff::/20, the second documentation prefix (RFC 9637, 2024), not yet in ipaddr.js's table. */
const DOCUMENTATION_3FFF: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('3fff::'), 20];

function parseIpv6Entry(text: string): IpEntry | IpEntryProblem {
  const m = IPV6_ENTRY_PATTERN.exec(text);
  if (!m || !ipaddr.IPv6.isValid(m[1]!)) return 'invalid';
  // /32 is a whole provider allocation (NTT's IPoE blocks are /32-/48 wide); wider is never one office.
  const prefix = m[2] === undefined ? 128 : Number(m[2]);
  if (prefix < 32 || prefix > 128) return 'invalid';
  const addr = ipaddr.IPv6.parse(m[1]!);
  const range = addr.range();
  if (range === 'loopback') return 'local';
  if (range === 'ipv4Mapped') return 'mapped';
  // The entry is kept as its network (2400:4050:1::5/48 is 2400:4050:1::/48), so the same network
  // typed two ways is one entry (the unique index) and the list shows what is allowed.
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${addr.toString()}/${prefix}`);
  // Global unicast (2000::/3, RFC 4291) and no special-purpose block inside it: documentation
  // (2001:db8::/32), Teredo, 6to4, benchmarking, ORCHID and the rest ipaddr.js names.
  if (network.range() !== 'unicast' || range !== 'unicast' || (network.parts[0]! & 0xe000) !== 0x2000 || network.match(DOCUMENTATION_3FFF)) return 'not-public';
  return { ipAddress: network.toString(), prefixLength: prefix, family: 'ipv6' };
}

/**
 * The entry "add my current address" adds for a client address: an IPv4 address itself (/32, an
 * IPv4-mapped one as IPv4), an IPv6 address's /64 (the office's subnet: the interface part
 * changes with privacy addresses, RFC 8981). Null when the address cannot be listed.
 */
export function ownAddressEntry(clientIp: string | null): IpEntry | null {
  if (!clientIp || !ipaddr.isValid(clientIp)) return null;
  let addr = ipaddr.parse(clientIp);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  const entry = addr.kind() === 'ipv4' ? parseIpEntry(addr.toString()) : parseIpEntry(`${addr.toString()}/64`);
  return typeof entry === 'object' ? entry : null;
}

/** How the list shows an entry: a single address without its suffix (/32, /128). */
export function ipEntryText(e: { ip_address: string; prefix_length: number }): string {
  const single = e.ip_address.includes(':') ? 128 : 32;
  return e.prefix_length === single ? e.ip_address : `${e.ip_address}/${e.prefix_length}`;
}

