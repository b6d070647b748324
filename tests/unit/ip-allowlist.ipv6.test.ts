// IPv6 in the IP allowlist (issue 27 part 5, decision 0045): what an entry may be, how the one
// matcher treats families and IPv4-mapped clients, and which entry "add my address" makes.
import { describe, expect, it } from 'vitest';
import { isAllowed } from '../../src/domain/security/ip-match';
import { whitelistedIpSchema } from '../../src/shared/tenant-settings/schemas';
import { ipEntryText, ownAddressEntry, parseIpEntry } from '../../src/shared/tenant-settings/ip-entry';
import * as z from 'zod/mini';

describe('IPv6 entries', () => {
  it('accepts global unicast addresses and /32-/128 prefixes, stored as the network in compressed form', () => {
    expect(parseIpEntry('2400:4050:1::/48')).toEqual({ ipAddress: '2400:4050:1::', prefixLength: 48, family: 'ipv6' });
    expect(parseIpEntry(' 2400:4050:0001:0000:0000:0000:0000:0005/48 ')).toEqual({ ipAddress: '2400:4050:1::', prefixLength: 48, family: 'ipv6' });
    expect(parseIpEntry('2400:4050:1:2:3:4:5:6')).toEqual({ ipAddress: '2400:4050:1:2:3:4:5:6', prefixLength: 128, family: 'ipv6' });
    expect(parseIpEntry('2400:4050::/32')).toMatchObject({ prefixLength: 32 });
    expect(parseIpEntry('2400:4050::1/128')).toMatchObject({ prefixLength: 128 });
    expect(parseIpEntry('2a00:1450:4001::/48')).toMatchObject({ family: 'ipv6' });
  });

  it('refuses prefixes outside /32-/128 (the /31 and /129 boundaries) and malformed text', () => {
    for (const text of ['2400:4050::/31', '2400:4050::/129', '2400:4050::/0', '2400:4050::/', '2400:4050::/-1', '2400:::1', '2400:4050:1::/48/1', 'fe80::1%eth0', '2400:4050:1::g', ':']) {
      expect(parseIpEntry(text), text).toBe('invalid');
    }
  });

  it('refuses loopback as local, and documentation, link-local, unique-local and other special ranges as not public', () => {
    expect(parseIpEntry('::1')).toBe('local');
    expect(parseIpEntry('::1/128')).toBe('local');
    for (const text of [
      '2001:db8::/32', // documentation (RFC 3849)
      '2001:db8:1::5',
      '3fff::/32', // documentation (RFC 9637), outside ipaddr.js's list but not a real network yet
      'fe80::1', // link-local
      'fe80::/64',
      'febf:ffff::1',
      'fc00::1', // unique-local
      'fd12:3456:789a::/48',
      'ff02::1', // multicast
      '::', // unspecified
      '2001::/32', // Teredo
      '2002:c000:204::/48', // 6to4
      '2001:2::/48', // benchmarking
      '64:ff9b::/96', // NAT64
      '100::/64', // discard
      '4000::/32', // not global unicast (2000::/3)
    ]) {
      expect(parseIpEntry(text), text).not.toMatchObject({ family: 'ipv6' });
      expect(['not-public', 'local']).toContain(parseIpEntry(text));
    }
    expect(parseIpEntry('::ffff:133.242.10.20')).toBe('mapped');
  });

  it('keeps the IPv4 rules of spec 02 exactly: /1-/32, 127 local, no prefix is 32', () => {
    expect(parseIpEntry('133.242.10.20')).toEqual({ ipAddress: '133.242.10.20', prefixLength: 32, family: 'ipv4' });
    expect(parseIpEntry('133.242.0.0/16')).toMatchObject({ prefixLength: 16 });
    expect(parseIpEntry('133.242.0.0/33')).toBe('invalid');
    expect(parseIpEntry('133.242.0.0/0')).toBe('invalid');
    expect(parseIpEntry('127.0.0.1')).toBe('local');
    expect(parseIpEntry('256.1.1.1')).toBe('invalid');
    // The server refuses other non-public IPv4 addresses; the form's rule is the spec's.
    expect(parseIpEntry('10.0.0.1')).toMatchObject({ family: 'ipv4' });
  });

  it('the API schema takes IPv6 prefixes up to 128 but IPv4 prefixes only up to 32', () => {
    expect(z.safeParse(whitelistedIpSchema, { ipAddress: '2400:4050:1::', prefixLength: 48 }).success).toBe(true);
    expect(z.safeParse(whitelistedIpSchema, { ipAddress: '2400:4050:1::', prefixLength: 129 }).success).toBe(false);
    expect(z.safeParse(whitelistedIpSchema, { ipAddress: '133.242.10.20', prefixLength: 33 }).success).toBe(false);
    expect(z.safeParse(whitelistedIpSchema, { ipAddress: '133.242.10.20' }).success).toBe(true);
    expect(z.safeParse(whitelistedIpSchema, { ipAddress: '<script>' }).success).toBe(false);
  });

  it('shows single addresses without a suffix in both families', () => {
    expect(ipEntryText({ ip_address: '133.242.10.20', prefix_length: 32 })).toBe('133.242.10.20');
    expect(ipEntryText({ ip_address: '2400:4050:1::5', prefix_length: 128 })).toBe('2400:4050:1::5');
    expect(ipEntryText({ ip_address: '2400:4050:1::', prefix_length: 48 })).toBe('2400:4050:1::/48');
  });
});

describe('"add my address"', () => {
  it('is the IPv4 address itself, an IPv4-mapped address as IPv4, and an IPv6 address\'s /64', () => {
    expect(ownAddressEntry('133.242.10.20')).toEqual({ ipAddress: '133.242.10.20', prefixLength: 32, family: 'ipv4' });
    expect(ownAddressEntry('::ffff:133.242.10.20')).toEqual({ ipAddress: '133.242.10.20', prefixLength: 32, family: 'ipv4' });
    expect(ownAddressEntry('2400:4050:1:2:aaaa:bbbb:cccc:dddd')).toEqual({ ipAddress: '2400:4050:1:2::', prefixLength: 64, family: 'ipv6' });
  });
  it('is not offered for addresses that cannot be listed', () => {
    for (const ip of [null, '127.0.0.1', '::1', 'fe80::1', 'fd00::1', 'nonsense']) expect(ownAddressEntry(ip), String(ip)).toBeNull();
  });
});

describe('the one matcher with both families', () => {
  const list = [
    { ipAddress: '133.242.10.20', prefixLength: 32 },
    { ipAddress: '2400:4050:1::', prefixLength: 48 },
    { ipAddress: '2400:4051::5', prefixLength: 128 },
  ];
  it('matches IPv6 clients inside a prefix, and only inside it', () => {
    expect(isAllowed('2400:4050:1:ffff::1', list)).toBe(true);
    expect(isAllowed('2400:4050:1::', list)).toBe(true);
    expect(isAllowed('2400:4050:2::1', list)).toBe(false);
    expect(isAllowed('2400:4051::5', list)).toBe(true);
    expect(isAllowed('2400:4051::6', list)).toBe(false);
  });
  it('treats an IPv4-mapped client as its IPv4 address and never crosses families', () => {
    expect(isAllowed('::ffff:133.242.10.20', list)).toBe(true);
    expect(isAllowed('::ffff:133.242.10.21', list)).toBe(false);
    // An IPv6 entry covering ::/0-like space must not admit IPv4 clients, nor an IPv4 entry IPv6 ones.
    expect(isAllowed('133.242.10.21', [{ ipAddress: '::', prefixLength: 0 }])).toBe(false);
    expect(isAllowed('::ffff:133.242.10.21', [{ ipAddress: '::', prefixLength: 0 }])).toBe(false);
    expect(isAllowed('2400:4050:1::1', [{ ipAddress: '0.0.0.0', prefixLength: 0 }])).toBe(false);
    expect(isAllowed('::ffff:133.242.10.20', [{ ipAddress: '::ffff:133.242.10.20', prefixLength: 128 }])).toBe(false);
  });
  it('ignores entries whose prefix is out of range for their family', () => {
    expect(isAllowed('133.242.10.20', [{ ipAddress: '133.242.10.20', prefixLength: 33 }])).toBe(false);
    expect(isAllowed('2400::1', [{ ipAddress: '2400::', prefixLength: 129 }])).toBe(false);
  });
});
