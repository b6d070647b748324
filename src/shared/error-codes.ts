// The catalogue of errors (issue 22): every error the portal answers, with its HTTP status, the
// text a person is shown for it, and the word it carries in `message` (DESIGN.md section 4: the
// spec's words verbatim, `{"message": "<code word>", ...details}`). Shared by the server and the
// islands: the domain throws `AppError(code)` naming a code alone, the API answers its status and
// word, and an island compares `r.data.message` with a word and shows `errorText(message)`, so a
// word misspelt on either side is a type error rather than a silent fallback. Decision 0033.
//
// The words are the spec's, including its inconsistencies (snake_case beside kebab-case): clients
// already match on them.

import { VALIDATION_FAILED, type SuccessWord } from './api-words';

export { SUCCESS_WORDS, VALIDATION_FAILED, type SuccessWord } from './api-words';

/** The statuses an error answer may have. */
export type ErrorStatus = 200 | 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 502;

/**
 * An error: the HTTP status it is answered with, the text key a person is shown for it (the
 * default; a screen may say something more precise in its own context), and, for the few words
 * the spec gives two meanings, the word on the wire when it is not the entry's own name.
 */
interface ErrorEntry {
  readonly status: ErrorStatus;
  readonly text: string;
  readonly word?: string;
}

const e = (status: ErrorStatus, text = 'errors.generic'): ErrorEntry => ({ status, text });

/**
 * Every error the portal answers, by code: the one place that decides its status and its text.
 * A throw site names the code alone (`new AppError('deactivated')`).
 */
export const ERRORS = {
  // sign-in (spec 01 sections 4 and 8)
  'invalid-credentials': e(401, 'errors.invalid-credentials'),
  deactivated: e(403, 'errors.deactivated'),
  'restricted-ip': e(403, 'errors.restricted-ip'),
  'not-a-member': e(403, 'errors.not-a-member'),
  'locked-out': e(429, 'twofa.lockedOut'),
  'too-many-attempts': e(429, 'errors.too-many-attempts'),
  'Too Many Attempts.': e(429, 'errors.too-many-attempts'),
  'invalid-otp': e(422, 'twofa.incorrect'),
  'invalid-backup-code': e(422, 'backupLogin.invalid'),
  'incorrect-additional-challenge': e(422, 'challenge.incorrect'),
  'additional-challenge-expired': e(422, 'challenge.expired'),
  'no-pending-login': e(401, 'login.notice.no-pending-login'),
  'no-pending-setup': e(409),
  'skip-not-allowed': e(403),
  'no-sms-number': e(409),
  'redirect-to-sso': e(409),
  'sign-in-required': e(403, 'myAccount.scope.notice'),
  'sso-not-configured': e(404, 'errors.sso-not-configured'),
  /** Switching SSO on before the IdP's settings are stored (the same word, another status). */
  'sso-settings-missing': { status: 422, text: 'errors.reload', word: 'sso-not-configured' },
  'handoff-invalid': e(400, 'errors.handoff-invalid'),
  'belongs-to-multiple-tenants': e(409, 'people.errors.multipleTenants'),
  'invitation-pending': e(409, 'people.errors.invitationPending'),
  'account-deleted': e(410, 'register.accountDeleted'),
  unauthenticated: e(401),
  forbidden: e(403),
  'password-verification-required': e(403),
  wrong_password: e(422, 'verifyPassword.wrong'),
  'current-password-wrong': e(422, 'changePassword.currentWrong'),
  // passkeys (decision 0039): one answer for an unknown credential, a wrong signature, a used or
  // expired challenge and another browser's challenge, so none of them tells which it was
  'passkey-invalid': e(401, 'passkeys.errors.invalid'),
  'passkey-registration-failed': e(422, 'passkeys.errors.registrationFailed'),
  'passkey-already-registered': e(409, 'passkeys.errors.alreadyRegistered'),
  'passkey-limit-reached': e(409, 'passkeys.errors.limit'),
  'cannot-remove-last-passkey': e(409, 'passkeys.errors.lastWayIn'),
  'no-passkey': e(409, 'passkeys.errors.none'),
  // links (reset, registration, email verification)
  'invalid-token': e(422, 'reset.invalid'),
  /** The Outlook add-in's verifier matched no mapping (the same word as a reset token's). */
  'addin-token-invalid': { status: 404, text: 'errors.generic', word: 'invalid-token' },
  /** An operator bearer token that is unknown, expired, rotated out or revoked (RFC 6750). */
  'bearer-token-invalid': { status: 401, text: 'errors.generic', word: 'invalid-token' },
  'Invalid signature.': e(403, 'register.invalidSignature'),
  'link-expired': e(410, 'register.linkExpired'),
  'token-already-used': e(409),
  'already-registered': e(409, 'register.alreadyRegistered'),
  'already-verified': e(409, 'unverified.alreadyVerified'),
  failed_to_reset_password: e(400, 'reset.failed'),
  'user-not-found': e(404),
  // forgot-password outcomes that are not a success (spec 01 "Forgot password outcomes")
  user_is_not_registered: e(200, 'forgot.notRegistered'),
  error_sending_mail: e(502, 'forgot.errorSending'),
  // tenant administration (spec 02)
  'duplicate-ip': e(422, 'ipRestriction.duplicate'),
  'The ip address must be a public IP address.': e(422, 'ipRestriction.notPublic'),
  'your-current-ip-address-is-not-whitelisted': e(422, 'ipRestriction.notWhitelisted'),
  'cannot-delete-last-admin': e(400, 'people.errors.cannotDeleteLastAdmin'),
  'cannot-deactivate-last-admin': e(422, 'people.errors.cannotDeactivateLastAdmin'),
  'cannot-make-last-admin-as-non-admin': e(422, 'people.errors.lastAdmin'),
  'cannot-delete-department-with-users': e(422, 'people.departments.hasUsers'),
  'cannot-delete-primary-contact': e(422, 'errors.reload'),
  'cannot-delete': e(422, 'ipRestriction.cannotDelete'),
  // A change that locks people out, saved without the count the admin confirmed (decision 0043).
  'lockout-confirmation-required': e(409, 'lockout.confirmationRequired'),
  'cannot-enable-sso-for-all-users': e(422, 'people.errors.cannotEnableSsoForAll'),
  'cannot-logout-current-session': e(422),
  'billing-contact-exists': e(409, 'errors.reload'),
  'duplicate-email': e(409, 'people.errors.duplicateEmail'),
  user_already_exists: e(409, 'people.errors.alreadyExists'),
  'subdomain-taken': e(409),
  'subdomain-reserved': e(422),
  'feature-not-subscribed': e(403, 'errors.reload'),
  'app-not-contracted': e(422, 'errors.reload'),
  quota_finished: e(422, 'people.errors.quotaFinished'),
  sso_users_limit_exceeded: e(422, 'people.errors.ssoLimit'),
  'saml-name-id-taken': e(422, 'people.errors.samlNameIdTaken'),
  'saml-refused': e(403, 'sso.loginError'),
  'could-not-change': e(422, 'tenantSettings.couldNotChange'),
  'already-handled': e(409),
  'nothing-requested': e(422, 'errors.reload'),
  'not-applicable': e(409, 'errors.reload'),
  'invalid-plan': e(422, 'errors.reload'),
  // uploads and imports
  'invalid-csv': e(422, 'people.import.invalidCsv'),
  'incorrect-encoding': e(422, 'people.import.incorrectEncoding'),
  unexpected_format: e(422, 'people.import.invalidCsv'),
  no_data: e(422, 'people.import.noData'),
  'file-too-large': e(413, 'people.import.tooLarge'),
  'upload-failed': e(400, 'people.import.someError'),
  'imports-in-progress': e(409, 'people.import.busy'),
  // A previewed import (decision 0043): members changed since the preview, or it ran (or expired) already.
  'import-target-changed': e(409, 'people.import.targetChanged'),
  'import-not-previewed': e(409, 'people.import.notPreviewed'),
  'app-usage-unavailable': e(502),
  // operator API
  'invalid-scopes': e(422),
  'invalid-token-name': e(422),
  'insufficient-scope': e(403),
  // operator token administration (the CLI, decision 0036)
  'invalid-token-lifetime': e(422),
  'invalid-rotation-overlap': e(422),
  'token-revoked': e(409),
  'token-already-rotated': e(409),
  // SCIM provisioning tokens (the admin screen and the CLI, decision 0040)
  'scim-token-limit': e(409, 'scim.tokens.limit'),
  // requests themselves
  'not-found': e(404),
  'unknown-host': e(404, 'errors.unknown-host'),
  'malformed-json': e(400),
  'csrf-check-failed': e(403, 'errors.reload'),
  'unsupported-media-type': e(415),
  'payload-too-large': e(413),
  'server-error': e(500),
} as const satisfies Record<string, ErrorEntry>;

/** A code of the catalogue (what the domain throws and routes answer). */
export type ErrorCode = keyof typeof ERRORS;

/** The word an error carries in `message` on the wire. */
export function wordOf(code: ErrorCode): string {
  const entry: ErrorEntry = ERRORS[code];
  return entry.word ?? code;
}

export function errorStatus(code: ErrorCode): ErrorStatus {
  return ERRORS[code].status;
}

/**
 * The text key for an answer's `message`: the catalogue's for a known word (the first entry that
 * answers with it), `fallback` for anything else.
 */
export function errorText(message: unknown, fallback = 'errors.generic'): string {
  return typeof message === 'string' ? (TEXT_BY_WORD.get(message) ?? fallback) : fallback;
}

const TEXT_BY_WORD = new Map<string, string>();
for (const [code, entry] of Object.entries(ERRORS) as [ErrorCode, ErrorEntry][]) if (!TEXT_BY_WORD.has(wordOf(code))) TEXT_BY_WORD.set(wordOf(code), entry.text);

/** The word an error answer carries in `message` (the code's own name, unless its entry says). */
export type ErrorWord = { [K in ErrorCode]: (typeof ERRORS)[K] extends { readonly word: infer W extends string } ? W : K }[ErrorCode];

/** Every word an error answer can carry in `message`. */
export const ERROR_CODES = [...new Set((Object.keys(ERRORS) as ErrorCode[]).map(wordOf))] as readonly ErrorWord[];

/**
 * Whatever an API answer may carry in `message`: an island comparing it with a word that is none
 * of these does not compile (src/shared/api.ts types ApiResult with it).
 */
export type ApiMessage = ErrorWord | SuccessWord | typeof VALIDATION_FAILED;


const words: ReadonlySet<string> = new Set(ERROR_CODES);

/** A code of the catalogue (not a word of the wire: see errorWordOf). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERRORS, value);
}

/** Whether `value` is a word an error answer carries. */
export function isErrorWord(value: unknown): value is ErrorWord {
  return typeof value === 'string' && words.has(value);
}

/**
 * The error word of an answer's `message`, or null when it is none of ours (a success word, the
 * validation envelope, an answer without a body).
 */
export function errorCodeOf(data: { message?: unknown } | null | undefined): ErrorWord | null {
  return isErrorWord(data?.message) ? data.message : null;
}
