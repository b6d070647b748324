import { describe, expect, it } from 'vitest';
import { checkRequirements, DEFAULT_POLICY, meetsPolicy, passwordScore, strictestPolicy } from '../../src/shared/account/password-strength';

describe('password policy and strength (spec 01 section 5)', () => {
  it('lists each requirement as met or unmet', () => {
    expect(checkRequirements('abc', DEFAULT_POLICY)).toEqual([
      { key: 'length', met: false },
      { key: 'mixedCase', met: false },
      { key: 'number', met: false },
      { key: 'special', met: false },
    ]);
    expect(meetsPolicy('Portal-Demo-2026!', DEFAULT_POLICY)).toBe(true);
    expect(meetsPolicy('portal-demo-2026!', DEFAULT_POLICY)).toBe(false);
    expect(meetsPolicy('Portal-Demo-2026!', { ...DEFAULT_POLICY, minimum_password_length: 20 })).toBe(false);
  });

  it('a password shorter than 8 scores -1; a strong one scores at least 2', () => {
    expect(passwordScore('Ab1!')).toBe(-1);
    expect(passwordScore('Portal-Demo-2026!')).toBeGreaterThanOrEqual(2);
  });

  it('penalises the product words and the user email', () => {
    expect(passwordScore('password1')).toBeLessThan(2);
    expect(passwordScore('meishi2026')).toBeLessThan(passwordScore('qv7#Lm2!x'));
    expect(passwordScore('taro.yamada', 'taro.yamada@acme.test')).toBeLessThan(2);
  });

  it('strictest policy takes the strongest rule of each', () => {
    expect(
      strictestPolicy([
        { minimum_password_length: 12, is_mixed_case_required: false, is_number_required: false, is_special_character_required: false },
      ]),
    ).toEqual({ ...DEFAULT_POLICY, minimum_password_length: 12 });
  });
});
