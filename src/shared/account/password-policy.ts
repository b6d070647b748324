// The tenant password policy and its checklist, without the zxcvbn scorer: islands import this
// statically and load the scorer (src/shared/account/password-strength.ts, with its large dictionaries) on demand,
// so pages without a password form never download the dictionaries.
export interface PasswordPolicy {
  minimum_password_length: number;
  is_mixed_case_required: boolean;
  is_number_required: boolean;
  is_special_character_required: boolean;
}

export const DEFAULT_POLICY: PasswordPolicy = {
  minimum_password_length: 8,
  is_mixed_case_required: true,
  is_number_required: true,
  is_special_character_required: true,
};

export const MIN_ACCEPTED_SCORE = 2;

export type Requirement = 'length' | 'mixedCase' | 'number' | 'special';

/**
 * What a password is made of, as far as the policy cares. The same reading decides at sign-in
 * (meetsPolicy) and, stored packed on the account, previews a stricter policy (decision 0043).
 */
export interface PasswordTraits {
  length: number;
  mixedCase: boolean;
  number: boolean;
  special: boolean;
}

/** The policy's longest minimum; a longer password is stored as this long (it meets any policy). */
export const MAX_POLICY_LENGTH = 128;

export function passwordTraits(password: string): PasswordTraits {
  return {
    length: [...password].length,
    mixedCase: /[a-z]/.test(password) && /[A-Z]/.test(password),
    number: /[0-9]/.test(password),
    special: /[^A-Za-z0-9]/.test(password),
  };
}

/** Packed for the users.password_traits column: bits 0-2 the kinds, the length (capped) above. */
export function packTraits(t: PasswordTraits): number {
  return (Math.min(t.length, MAX_POLICY_LENGTH) << 3) | (t.mixedCase ? 1 : 0) | (t.number ? 2 : 0) | (t.special ? 4 : 0);
}

export function unpackTraits(n: number): PasswordTraits {
  return { length: n >> 3, mixedCase: (n & 1) !== 0, number: (n & 2) !== 0, special: (n & 4) !== 0 };
}

export function requirementsOf(t: PasswordTraits, policy: PasswordPolicy) {
  const reqs: { key: Requirement; met: boolean }[] = [{ key: 'length', met: t.length >= policy.minimum_password_length }];
  if (policy.is_mixed_case_required) reqs.push({ key: 'mixedCase', met: t.mixedCase });
  if (policy.is_number_required) reqs.push({ key: 'number', met: t.number });
  if (policy.is_special_character_required) reqs.push({ key: 'special', met: t.special });
  return reqs;
}

export function checkRequirements(password: string, policy: PasswordPolicy) {
  return requirementsOf(passwordTraits(password), policy);
}

export function traitsMeetPolicy(t: PasswordTraits, policy: PasswordPolicy): boolean {
  return requirementsOf(t, policy).every((r) => r.met);
}

/** Decides `meets_current_policy` at sign-in: a password that does not must be changed. */
export function meetsPolicy(password: string, policy: PasswordPolicy): boolean {
  return traitsMeetPolicy(passwordTraits(password), policy);
}

/**
 * The change-password dialog's reading of a server message about the new password (spec 01
 * section 5): keywords map to the dialog's own texts; anything else is shown as the server wrote it.
 */
export type NewPasswordMessage =
  | { key: 'length'; count: number }
  | { key: 'mixedCase' | 'number' | 'special' | 'veryWeak' | 'weak' }
  | { key: 'raw'; text: string };

export function readNewPasswordMessage(message: string): NewPasswordMessage {
  const m = message.toLowerCase();
  const least = /at least (\d+) characters?/.exec(m);
  if (least) return { key: 'length', count: Number(least[1]) };
  if (m.includes('uppercase') && m.includes('lowercase')) return { key: 'mixedCase' };
  if (m.includes('number') || m.includes('digit')) return { key: 'number' };
  if (m.includes('special character')) return { key: 'special' };
  if (m.includes('very easy') || m.includes('very weak')) return { key: 'veryWeak' };
  if (m.includes('easy') || m.includes('weak') || m.includes('guess')) return { key: 'weak' };
  return { key: 'raw', text: message };
}
