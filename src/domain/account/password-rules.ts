// Server-side check of a new password (policy, strength, confirmation). The errors name text keys
// the edge translates into the request's language; in English they carry the keywords the
// change-password dialog maps (spec 01 section 5: "at least N characters", "uppercase and
// lowercase", "number", ...).
import { checkRequirements, MIN_ACCEPTED_SCORE, passwordScore, type PasswordPolicy } from '../../shared/account/password-strength';
import { text, ValidationError, type FieldText } from '../errors';

export function newPasswordErrors(p: {
  password: string;
  confirmation: string;
  policy: PasswordPolicy;
  email: string;
  field: string;
  confirmationField: string;
}): Record<string, FieldText[]> {
  const errors: FieldText[] = [];
  for (const r of checkRequirements(p.password, p.policy)) {
    if (!r.met) errors.push(text(`passwordRules.server.${r.key}`, { count: p.policy.minimum_password_length }));
  }
  if (errors.length === 0) {
    const score = passwordScore(p.password, p.email);
    if (score < MIN_ACCEPTED_SCORE) errors.push(text(score <= 0 ? 'passwordRules.server.veryWeak' : 'passwordRules.server.weak'));
  }
  const out: Record<string, FieldText[]> = {};
  if (errors.length) out[p.field] = errors;
  if (p.password !== p.confirmation) out[p.confirmationField] = [text('passwordRules.confirmationMismatch')];
  return out;
}

export function assertNewPassword(p: Parameters<typeof newPasswordErrors>[0]): void {
  const errors = newPasswordErrors(p);
  if (Object.keys(errors).length) throw new ValidationError(errors);
}
