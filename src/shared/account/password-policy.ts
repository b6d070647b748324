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

export function checkRequirements(password: string, policy: PasswordPolicy) {
  const reqs: { key: Requirement; met: boolean }[] = [
    { key: 'length', met: [...password].length >= policy.minimum_password_length },
  ];
  if (policy.is_mixed_case_required) reqs.push({ key: 'mixedCase', met: /[a-z]/.test(password) && /[A-Z]/.test(password) });
  if (policy.is_number_required) reqs.push({ key: 'number', met: /[0-9]/.test(password) });
  if (policy.is_special_character_required) reqs.push({ key: 'special', met: /[^A-Za-z0-9]/.test(password) });
  return reqs;
}

export function meetsPolicy(password: string, policy: PasswordPolicy): boolean {
  return checkRequirements(password, policy).every((r) => r.met);
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
