// Password rules shared by the server and the password islands: the tenant's policy checklist and
// the zxcvbn-ts guessability score (spec 01 section 5).
import { zxcvbn, zxcvbnOptions } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import * as ja from '@zxcvbn-ts/language-ja';
import { DEFAULT_POLICY, type PasswordPolicy } from './password-policy';

// The policy checklist lives beside, without the dictionaries; re-exported for server code.
export * from './password-policy';

/** Words the guess check penalises besides the user's email (spec 01 section 5). */
export const PENALISED_WORDS = ['nexta', 'nextameishi', 'meishi', 'tonichi', 'secret'];

// Configured once at load with fixed dictionaries; per-call inputs are passed to zxcvbn().
zxcvbnOptions.setOptions({
  dictionary: { ...common.dictionary, ...en.dictionary, ...ja.dictionary },
  graphs: common.adjacencyGraphs,
  translations: en.translations,
});

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
