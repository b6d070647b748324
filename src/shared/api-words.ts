// The words an API answer's `message` carries besides errors: the successes of spec 01 and 02, and
// the validation envelope's. Apart from the error catalogue (src/shared/error-codes.ts), so an
// island that compares with these does not carry the catalogue's texts into its page.

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
  // a dry-run import, checked and waiting to be run (decision 0043)
  'previewed',
  'already-applied',
  'sent-register-mail-to-new-email-id',
  // a login that goes on to another step (spec 01 section 4)
  'enter-otp',
  'enter-additional-challenge',
  'enable-twofa',
  // a tenant that requires passkeys: the person adds one before the session (decision 0039)
  'enable-passkey',
] as const;

export type SuccessWord = (typeof SUCCESS_WORDS)[number];

/** The 422 envelope's message (Laravel's words, which the spec keeps): not a code word. */
export const VALIDATION_FAILED = 'The given data was invalid.';
