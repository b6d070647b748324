// Request schemas shared by the server (validation) and some islands (form checks). They use
// zod/mini so the islands that import them ship a few kilobytes, not the whole of zod; the sign-in
// islands check with the zod-free rules of ./form-rules, which these schemas are built from.
// Messages are i18n keys, translated where they are shown.
import * as z from 'zod/mini';
import { BACKUP_CODE_MAX_LENGTH, EMAIL_MAX_LENGTH, EMAIL_PATTERN, OTP_PATTERN } from './form-rules';

export const emailSchema = z
  .string({ error: 'validation.required' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'validation.required', abort: true }),
    z.maxLength(EMAIL_MAX_LENGTH, { error: 'validation.emailInvalid', abort: true }),
    z.email({ pattern: EMAIL_PATTERN, error: 'validation.emailInvalid' }),
  );

export const loginSchema = z.object({
  email: emailSchema,
  password: z.string({ error: 'validation.required' }).check(z.minLength(1, { error: 'validation.required' }), z.maxLength(1024)),
  remember: z._default(z.optional(z.boolean()), false),
  continue: z.optional(z.string().check(z.maxLength(2048))),
  source: z.optional(z.string().check(z.maxLength(64))),
});
export type LoginInput = z.output<typeof loginSchema>;

export const languageSchema = z.object({ language: z.enum(['ja', 'en']) });

export const handoffSchema = z.object({
  tenant_id: z.number().check(z.int(), z.positive()),
  continue: z.optional(z.string().check(z.maxLength(2048))),
});

export const emailQuerySchema = z.object({ email: emailSchema });

/** One-time codes: half-width digits only, six of them (spec 01 section 5). */
export const otpSchema = z.object({
  otp: z.string({ error: 'validation.required' }).check(z.regex(OTP_PATTERN, { error: 'validation.otpDigits' })),
});

const required = (max = 1024) =>
  z.string({ error: 'validation.required' }).check(z.minLength(1, { error: 'validation.required', abort: true }), z.maxLength(max));

export const forgotSchema = z.object({ email: emailSchema });

export const verifyResetTokenSchema = z.object({ email: emailSchema, token: required(256) });

export const resetPasswordSchema = z.object({
  email: emailSchema,
  token: required(256),
  password: required(),
  password_confirmation: z.string().check(z.maxLength(1024)),
});

export const registerSchema = z.object({
  password: required(),
  password_confirmation: z.string().check(z.maxLength(1024)),
});

export const changePasswordSchema = z.object({
  current_password: required(),
  new_password: required(),
  new_password_confirmation: z.string().check(z.maxLength(1024)),
});

/**
 * The query parameters of our signed mail links (`unsignedLink` in domain/account/registration.ts:
 * expires, id, then signature) and of the API call an island makes from one (expires, signature,
 * and the address as `email`).
 */
export const SIGNED_LINK_PARAMS = ['expires', 'id', 'signature', 'email'] as const;
export type SignedLinkParams = Partial<Record<(typeof SIGNED_LINK_PARAMS)[number], string>>;

/**
 * Reads each signed-link parameter under its own name or its `amp;` name: a mail client that
 * HTML-escapes the whole link (`?expires=1&amp;id=2&amp;signature=…`) makes the browser send
 * `expires`, `amp;id` and `amp;signature` (spec 01: "also read as amp;signature"). A parameter
 * given more than once with different values (plain and `amp;`, or twice) is a conflict: null, and
 * the link is refused as "Invalid signature.", so nobody can add a value and choose which one is
 * checked (decision 0037). The same value twice is one value. The page and the API both read
 * links through here, so they always see the same parameters.
 */
export function readSignedLinkParams(all: Record<string, string[] | undefined>): SignedLinkParams | null {
  const out: SignedLinkParams = {};
  for (const name of SIGNED_LINK_PARAMS) {
    const values = new Set([...(all[name] ?? []), ...(all[`amp;${name}`] ?? [])]);
    if (values.size > 1) return null;
    const [value] = values;
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** A signed link's checked parts, from `readSignedLinkParams` (the API documents them plain). */
export const signedLinkQuerySchema = z.object({
  // The address the link was made for (the page's path, the API's `email`): lets the signature be
  // checked even when the account behind the id is gone.
  email: z.optional(z.string().check(z.maxLength(254))),
  expires: z.string({ error: 'Invalid signature.' }).check(z.regex(/^[0-9]{1,12}$/, { error: 'Invalid signature.' })),
  signature: z.string({ error: 'Invalid signature.' }).check(z.regex(/^[0-9a-f]{64}$/, { error: 'Invalid signature.' })),
});

/** The Outlook add-in's token: base64url(SHA-256(verifier)), 43 characters (decision 0007). */
export const addinTokenSchema = z.object({ token: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/)) });
/** Redeeming needs the verifier itself (43 to 128 characters, as a PKCE code verifier). */
export const addinRedeemSchema = z.object({ verifier: z.string().check(z.regex(/^[A-Za-z0-9._~-]{43,128}$/)) });

export const verifyPasswordSchema = z.object({ password: required(), redirect: z.optional(z.string().check(z.maxLength(2048))) });

export const otpLoginSchema = z.object({
  otp: z.string({ error: 'validation.required' }).check(z.regex(OTP_PATTERN, { error: 'validation.otpDigits' })),
  rememberDevice: z._default(z.optional(z.boolean()), false),
});

export const backupCodeSchema = z.object({ backupCode: required(BACKUP_CODE_MAX_LENGTH) });

/** E.164 contact for SMS setup; whether it is a mobile number is checked with libphonenumber. */
export const smsContactSchema = z.object({
  contact: z.string({ error: 'validation.required' }).check(z.regex(/^\+[1-9][0-9]{6,14}$/, { error: 'validation.invalidMobile' })),
});

/** POST twofa/setup: which factor the setup is for (authenticator app or SMS). */
export const twofaSetupSchema = z.object({ method: z.enum(['app', 'sms'], { error: 'validation.required' }) });
