// Derived keys and stored one-time codes (issue 12: six-digit codes were plain SHA-256).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { codeMac, codeMacMatches, derivedKey } from '../../src/domain/security/keys';

const MASTER = 'a-test-data-encryption-key-of-at-least-32-chars';

describe('derived keys', () => {
  it('are 32 bytes, stable, and differ by master key and by key id', () => {
    expect(derivedKey(MASTER, 'otp-code')).toHaveLength(32);
    expect(derivedKey(MASTER, 'otp-code').equals(derivedKey(MASTER, 'otp-code'))).toBe(true);
    expect(derivedKey(MASTER, 'otp-code').equals(derivedKey(`${MASTER}!`, 'otp-code'))).toBe(false);
    expect(() => derivedKey(MASTER, 'otp-code', 'k9')).toThrow();
  });
});

describe('stored one-time codes', () => {
  it('are a keyed MAC with a key id, not the SHA-256 of the code, and verify only with the same key and subject', () => {
    const stored = codeMac(MASTER, 'sms:4', '123456');
    expect(stored).toMatch(/^k1\.[0-9a-f]{64}$/);
    expect(stored).not.toContain(createHash('sha256').update('123456').digest('hex'));
    expect(codeMacMatches(MASTER, 'sms:4', '123456', stored)).toBe(true);
    expect(codeMacMatches(MASTER, 'sms:4', '123457', stored)).toBe(false);
    expect(codeMacMatches(MASTER, 'sms:5', '123456', stored)).toBe(false);
    expect(codeMacMatches(`${MASTER}!`, 'sms:4', '123456', stored)).toBe(false);
    // A bare SHA-256 (the old form) is never accepted.
    expect(codeMacMatches(MASTER, 'sms:4', '123456', createHash('sha256').update('123456').digest('hex'))).toBe(false);
  });
});
