import { describe, expect, it } from 'vitest';
import { isAllowed } from '../../src/domain/security/ip-match';

describe('IP allowlist matching', () => {
  const list = [
    { ipAddress: '203.0.113.10', prefixLength: 32 },
    { ipAddress: '198.51.100.0', prefixLength: 24 },
  ];
  it('matches exact addresses and CIDR ranges', () => {
    expect(isAllowed('203.0.113.10', list)).toBe(true);
    expect(isAllowed('203.0.113.11', list)).toBe(false);
    expect(isAllowed('198.51.100.250', list)).toBe(true);
    expect(isAllowed('198.51.101.1', list)).toBe(false);
  });
  it('understands IPv4-mapped IPv6 and refuses missing or malformed addresses', () => {
    expect(isAllowed('::ffff:203.0.113.10', list)).toBe(true);
    expect(isAllowed(null, list)).toBe(false);
    expect(isAllowed('not-an-ip', list)).toBe(false);
    expect(isAllowed('2001:db8::1', list)).toBe(false);
  });
});
