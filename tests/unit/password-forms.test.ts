// Rules the password forms apply in the browser (spec 01 sections 4, 5 and 8): the change dialog's
// reading of server messages, when the dialog is forced after login, and the checklist.
import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { getT } from '../../src/shared/i18n';
import { checkRequirements, DEFAULT_POLICY, readNewPasswordMessage } from '../../src/shared/account/password-policy';
import { forcedReason } from '../../src/shared/sign-in/signed-in';

describe('change-password dialog: server messages about the new password', () => {
  it('maps the spec keywords to the dialog texts, whatever else the message says', () => {
    expect(readNewPasswordMessage('The password must be at least 12 characters.')).toEqual({ key: 'length', count: 12 });
    expect(readNewPasswordMessage('Must contain at least one uppercase and one lowercase letter')).toEqual({ key: 'mixedCase' });
    expect(readNewPasswordMessage('uppercase and lowercase please')).toEqual({ key: 'mixedCase' });
    expect(readNewPasswordMessage('needs a number')).toEqual({ key: 'number' });
    expect(readNewPasswordMessage('needs a digit')).toEqual({ key: 'number' });
    expect(readNewPasswordMessage('needs a special character')).toEqual({ key: 'special' });
    expect(readNewPasswordMessage('This password is very weak.')).toEqual({ key: 'veryWeak' });
    expect(readNewPasswordMessage('This is very easy to crack')).toEqual({ key: 'veryWeak' });
    expect(readNewPasswordMessage('This password is too easy to guess.')).toEqual({ key: 'weak' });
    expect(readNewPasswordMessage('weak')).toEqual({ key: 'weak' });
    expect(readNewPasswordMessage('Others could guess it')).toEqual({ key: 'weak' });
    expect(readNewPasswordMessage('このパスワードは使用できません')).toEqual({ key: 'raw', text: 'このパスワードは使用できません' });
  });

  it("reads every message the server itself writes in English as its own rule", () => {
    const server = en.passwordRules.server;
    const t = getT('en');
    expect(readNewPasswordMessage(t('passwordRules.server.length', { count: 10 }))).toEqual({ key: 'length', count: 10 });
    expect(readNewPasswordMessage(server.mixedCase).key).toBe('mixedCase');
    expect(readNewPasswordMessage(server.number).key).toBe('number');
    expect(readNewPasswordMessage(server.special).key).toBe('special');
    expect(readNewPasswordMessage(server.veryWeak).key).toBe('veryWeak');
    expect(readNewPasswordMessage(server.weak).key).toBe('weak');
  });
});

describe('the forced dialog after login', () => {
  const policy = DEFAULT_POLICY;
  it('non-compliant first, then weak below a score of 2, else none', () => {
    expect(forcedReason({ meets_current_policy: false, score: 4, policy })).toBe('non-compliant');
    expect(forcedReason({ meets_current_policy: false, score: 0, policy })).toBe('non-compliant');
    expect(forcedReason({ meets_current_policy: true, score: 1, policy })).toBe('weak');
    expect(forcedReason({ meets_current_policy: true, score: -1, policy })).toBe('weak');
    expect(forcedReason({ meets_current_policy: true, score: 2, policy })).toBeNull();
    // No password was checked: weak-password-required.
    expect(forcedReason(null)).toBe('weak');
  });
});

describe('the checklist', () => {
  it('lists only the rules the policy asks for, length by code points', () => {
    const loose = { ...DEFAULT_POLICY, minimum_password_length: 4, is_mixed_case_required: false, is_number_required: false, is_special_character_required: false };
    expect(checkRequirements('パスワ', loose)).toEqual([{ key: 'length', met: false }]);
    expect(checkRequirements('パスワード', loose)).toEqual([{ key: 'length', met: true }]);
    expect(checkRequirements('Abc1!xyz', DEFAULT_POLICY).every((r) => r.met)).toBe(true);
    expect(checkRequirements('abc1!xyz', DEFAULT_POLICY).find((r) => r.key === 'mixedCase')?.met).toBe(false);
  });
});
