// What an SMS code of the forced setup at login is bound to (decision 0046): the person, the
// pending login, the started setup and the number. A code made for one of them must not verify for
// another, nor as the account's SMS code; and the spec's mobile-number rule is the account's.
import { describe, expect, it } from 'vitest';
import { loginSetupSmsSubject } from '../../src/domain/twofa/login';
import { requireMobile, smsSubject } from '../../src/domain/twofa/setup';
import { codeMac, codeMacMatches } from '../../src/domain/security/keys';
import { ValidationError } from '../../src/domain/errors';

const KEY = 'a'.repeat(64);
const CODE = '123456';

describe('loginSetupSmsSubject', () => {
  type Args = Parameters<typeof loginSetupSmsSubject>;
  const base: Args = [2, 'challenge-a', 1_800_000_000_000, '+819012345678'];
  const stored = codeMac(KEY, loginSetupSmsSubject(...base), CODE);

  it('verifies for the same person, pending login, setup and number', () => {
    expect(codeMacMatches(KEY, loginSetupSmsSubject(...base), CODE, stored)).toBe(true);
  });

  it.each<[string, Args]>([
    ['another person', [3, base[1], base[2], base[3]]],
    ['another pending login', [base[0], 'challenge-b', base[2], base[3]]],
    ['a restarted setup', [base[0], base[1], base[2] + 1, base[3]]],
    ['another number', [base[0], base[1], base[2], '+819087654321']],
  ])('does not verify for %s', (_, other) => {
    expect(codeMacMatches(KEY, loginSetupSmsSubject(...other), CODE, stored)).toBe(false);
  });

  it('is never the account\'s subject, so neither code passes for the other', () => {
    expect(codeMacMatches(KEY, smsSubject(2), CODE, stored)).toBe(false);
    expect(codeMacMatches(KEY, loginSetupSmsSubject(...base), CODE, codeMac(KEY, smsSubject(2), CODE))).toBe(false);
  });
});

describe('requireMobile (the account\'s and the login setup\'s number rule)', () => {
  it('answers E.164 for a mobile number', () => {
    expect(requireMobile('+819012345678')).toBe('+819012345678');
  });
  it('refuses a landline and a national number without a country code as an invalid mobile', () => {
    for (const bad of ['+81312345678', '090-1234-5678', '']) {
      expect(() => requireMobile(bad), bad).toThrow(ValidationError);
      try {
        requireMobile(bad);
      } catch (e) {
        expect((e as ValidationError).errors).toEqual({ contact: [{ key: 'validation.invalidMobile' }] });
      }
    }
  });
});
