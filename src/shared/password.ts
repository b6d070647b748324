// Password rules shared by the server and the password islands: the tenant's policy checklist and
// the zxcvbn-ts guessability score (spec 01 section 5).
import { zxcvbn, zxcvbnOptions } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import * as ja from '@zxcvbn-ts/language-ja';

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

/** Words the guess check penalises besides the user's email (spec 01 section 5). */
export const PENALISED_WORDS = ['nexta', 'nextameishi', 'meishi', 'tonichi', 'secret'];

// Configured once at load with fixed dictionaries; per-call inputs are passed to zxcvbn().
zxcvbnOptions.setOptions({
  dictionary: { ...common.dictionary, ...en.dictionary, ...ja.dictionary },
  graphs: common.adjacencyGraphs,
  translations: en.translations,
});

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

/** zxcvbn score 0..4; a password shorter than 8 counts as -1 whatever its guesses. */
export function passwordScore(password: string, email?: string | null): number {
  if ([...password].length < 8) return -1;
  const inputs = [...PENALISED_WORDS];
  if (email) inputs.push(email, email.split('@')[0] ?? '', ...email.split(/[@.+_-]/).filter((p) => p.length >= 3));
  return zxcvbn(password, inputs).score;
}

/** The stricter of two policies, rule by rule. */
export function strictestPolicy(policies: PasswordPolicy[]): PasswordPolicy {
  return policies.reduce(
    (a, b) => ({
      minimum_password_length: Math.max(a.minimum_password_length, b.minimum_password_length),
      is_mixed_case_required: a.is_mixed_case_required || b.is_mixed_case_required,
      is_number_required: a.is_number_required || b.is_number_required,
      is_special_character_required: a.is_special_character_required || b.is_special_character_required,
    }),
    DEFAULT_POLICY,
  );
}
