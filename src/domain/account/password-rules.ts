// Server-side check of a new password (policy, strength, confirmation). Messages are translated
// into the request language; in English they carry the keywords the change-password dialog maps
// (spec 01 section 5: "at least N characters", "uppercase and lowercase", "number", ...).
import { checkRequirements, MIN_ACCEPTED_SCORE, passwordScore, type PasswordPolicy } from '../../shared/account/password-strength';
import type { T } from '../../shared/i18n';
import { ValidationError } from '../errors';

export function newPasswordErrors(
  t: T,
  p: { password: string; confirmation: string; policy: PasswordPolicy; email: string; field: string; confirmationField: string },
): Record<string, string[]> {
  const errors: string[] = [];
  for (const r of checkRequirements(p.password, p.policy)) {
    if (!r.met) errors.push(t(`passwordRules.server.${r.key}`, { count: p.policy.minimum_password_length }));
  }
  if (errors.length === 0) {
    const score = passwordScore(p.password, p.email);
    if (score < MIN_ACCEPTED_SCORE) errors.push(t(score <= 0 ? 'passwordRules.server.veryWeak' : 'passwordRules.server.weak'));
  }
  const out: Record<string, string[]> = {};
  if (errors.length) out[p.field] = errors;
  if (p.password !== p.confirmation) out[p.confirmationField] = [t('passwordRules.confirmationMismatch')];
  return out;
}

export function assertNewPassword(t: T, p: Parameters<typeof newPasswordErrors>[1]): void {
  const errors = newPasswordErrors(t, p);
  if (Object.keys(errors).length) throw new ValidationError(errors);
}
