// Field rules the islands check as the user types, without zod in the browser: the server's zod
// schemas (src/shared/schemas.ts) are built from the same constants and give the same message
// keys (tests/unit/form-rules.test.ts compares the two on many inputs).

export const EMAIL_MAX_LENGTH = 254;
/**
 * zod's own email pattern (`z.regexes.email`, what `z.email()` uses), held here so the browser
 * can use it without zod; the unit test fails if zod's changes.
 */
// eslint-disable-next-line no-useless-escape -- character for character zod's source, which the unit test compares
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** The message key of what is wrong with an email address (trimmed first), or null. */
export function emailProblem(value: string): 'validation.required' | 'validation.emailInvalid' | null {
  const v = value.trim();
  if (v === '') return 'validation.required';
  if (v.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(v)) return 'validation.emailInvalid';
  return null;
}

/** One-time codes: six half-width digits (spec 01 section 5). */
export const OTP_PATTERN = /^[0-9]{6}$/;

export function otpProblem(value: string): 'validation.otpDigits' | null {
  return OTP_PATTERN.test(value) ? null : 'validation.otpDigits';
}

/** Backup codes as typed ("12345 67890"), trimmed: at most this long (backupCodeSchema's limit). */
export const BACKUP_CODE_MAX_LENGTH = 64;

/** The message key of what is wrong with a backup code (trimmed first), or null. */
export function backupCodeProblem(value: string): 'validation.required' | null {
  return value.trim() === '' ? 'validation.required' : null;
}
