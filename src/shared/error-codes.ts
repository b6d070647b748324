// Every code word an error answer can carry in `message` (DESIGN.md section 4: the spec's words
// verbatim, `{"message": "<code word>", ...details}`), as one typed union shared by the server and
// the islands. The domain throws `AppError(code)` with one of these (src/domain/errors.ts types its
// `code` with it), the API answers it, and an island compares `r.data.message` with it, so a word
// misspelt on either side is a type error rather than a silent fallback. Decision 0033.
//
// The words are the spec's, including its inconsistencies (snake_case beside kebab-case): clients
// already match on them.

export const ERROR_CODES = [
  // sign-in (spec 01 sections 4 and 8)
  'invalid-credentials',
  'deactivated',
  'restricted-ip',
  'not-a-member',
  'locked-out',
  'too-many-attempts',
  'Too Many Attempts.',
  'invalid-otp',
  'invalid-backup-code',
  'incorrect-additional-challenge',
  'additional-challenge-expired',
  'no-pending-login',
  'no-pending-setup',
  'skip-not-allowed',
  'no-sms-number',
  'redirect-to-sso',
  'sign-in-required',
  'sso-not-configured',
  'handoff-invalid',
  'belongs-to-multiple-tenants',
  'invitation-pending',
  'account-deleted',
  'unauthenticated',
  'forbidden',
  'password-verification-required',
  'wrong_password',
  'current-password-wrong',
  // links (reset, registration, email verification)
  'invalid-token',
  'Invalid signature.',
  'link-expired',
  'token-already-used',
  'already-registered',
  'already-verified',
  'failed_to_reset_password',
  'user-not-found',
  'user_is_not_registered',
  'error_sending_mail',
  // tenant administration (spec 02)
  'duplicate-ip',
  'The ip address must be a public IP address.',
  'your-current-ip-address-is-not-whitelisted',
  'cannot-delete-last-admin',
  'cannot-deactivate-last-admin',
  'cannot-make-last-admin-as-non-admin',
  'cannot-delete-department-with-users',
  'cannot-delete-primary-contact',
  'cannot-delete',
  'cannot-enable-sso-for-all-users',
  'cannot-logout-current-session',
  'billing-contact-exists',
  'duplicate-email',
  'user_already_exists',
  'subdomain-taken',
  'subdomain-reserved',
  'feature-not-subscribed',
  'app-not-contracted',
  'quota_finished',
  'sso_users_limit_exceeded',
  'saml-name-id-taken',
  'saml-refused',
  'could-not-change',
  'already-handled',
  'nothing-requested',
  'not-applicable',
  'invalid-plan',
  // uploads and imports
  'invalid-csv',
  'incorrect-encoding',
  'unexpected_format',
  'no_data',
  'file-too-large',
  'upload-failed',
  'imports-in-progress',
  'app-usage-unavailable',
  // operator API
  'invalid-scopes',
  'invalid-token-name',
  'insufficient-scope',
  // operator token administration (the CLI, decision 0036)
  'invalid-token-lifetime',
  'invalid-rotation-overlap',
  'token-revoked',
  'token-already-rotated',
  // requests themselves
  'not-found',
  'unknown-host',
  'malformed-json',
  'csrf-check-failed',
  'unsupported-media-type',
  'payload-too-large',
  'server-error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The words a successful answer carries in `message` (spec 01 and 02, verbatim). */
export const SUCCESS_WORDS = [
  'success',
  'verified',
  'sent',
  'code-resent',
  'email_sent',
  'password-set',
  'valid',
  'deleting',
  'processing',
  'already-applied',
  'sent-register-mail-to-new-email-id',
  // a login that goes on to another step (spec 01 section 4)
  'enter-otp',
  'enter-additional-challenge',
  'enable-twofa',
] as const;

export type SuccessWord = (typeof SUCCESS_WORDS)[number];

/**
 * Whatever an API answer may carry in `message`: an island comparing it with a word that is none
 * of these does not compile (src/shared/api.ts types ApiResult with it).
 */
export type ApiMessage = ErrorCode | SuccessWord | typeof VALIDATION_FAILED;

/** The 422 envelope's message (Laravel's words, which the spec keeps): not a code word. */
export const VALIDATION_FAILED = 'The given data was invalid.';

const known: ReadonlySet<string> = new Set(ERROR_CODES);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && known.has(value);
}

/**
 * The code word of an answer's `message`, or null when it is none of ours (a success word, the
 * validation envelope, an answer without a body).
 */
export function errorCodeOf(data: { message?: unknown } | null | undefined): ErrorCode | null {
  return isErrorCode(data?.message) ? data.message : null;
}
