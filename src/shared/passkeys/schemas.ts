// Passkey calls' bodies (decision 0039), shared by the server and the OpenAPI description. The
// browser's answers are WebAuthn's JSON forms (RegistrationResponseJSON, AuthenticationResponseJSON
// of @simplewebauthn/browser): only their shape is checked here; what they say is checked by
// @simplewebauthn/server. The islands send what the library made and import none of this (no zod
// on the sign-in pages).
import * as z from 'zod/mini';

/** base64url, as every binary field of the JSON forms is. */
const b64url = (max: number) => z.string().check(z.minLength(1), z.maxLength(max), z.regex(/^[A-Za-z0-9_-]+$/));

const transports = z.optional(z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])).check(z.maxLength(8)));
const common = {
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
  clientExtensionResults: z._default(z.optional(z.record(z.string(), z.unknown())), {}),
};

export const registrationResponseSchema = z.object({
  ...common,
  response: z.object({
    clientDataJSON: b64url(4096),
    attestationObject: b64url(48_000),
    transports,
    authenticatorData: z.optional(b64url(48_000)),
    publicKey: z.optional(b64url(4096)),
    publicKeyAlgorithm: z.optional(z.number()),
  }),
});

export const authenticationResponseSchema = z.object({
  ...common,
  response: z.object({
    clientDataJSON: b64url(4096),
    authenticatorData: b64url(4096),
    signature: b64url(2048),
    userHandle: z.optional(b64url(128)),
  }),
});

export const passkeySignInSchema = z.object({
  response: authenticationResponseSchema,
  remember: z._default(z.optional(z.boolean()), false),
});

export const passkeyAssertionSchema = z.object({ response: authenticationResponseSchema });
export const passkeyRegistrationSchema = z.object({ response: registrationResponseSchema });

export const PASSKEY_NAME_MAX = 64;
export const passkeyRenameSchema = z.object({
  name: z.string({ error: 'validation.required' }).check(
    z.trim(),
    z.minLength(1, { error: 'validation.required', abort: true }),
    z.maxLength(PASSKEY_NAME_MAX, { error: 'passkeys.errors.name' }),
  ),
});

/** Removing a passkey: the password again (accounts without one confirmed with a passkey before). */
export const passkeyRemoveSchema = z.object({ password: z.optional(z.string().check(z.maxLength(1024))) });
