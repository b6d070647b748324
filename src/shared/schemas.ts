// Request schemas shared by the server (validation) and the islands (form checks). They use
// zod/mini so the islands ship a few kilobytes, not the whole of zod. Messages are i18n keys,
// translated where they are shown.
import * as z from 'zod/mini';

export const emailSchema = z
  .string({ error: 'validation.required' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'validation.required', abort: true }),
    z.maxLength(254, { error: 'validation.emailInvalid', abort: true }),
    z.email({ error: 'validation.emailInvalid' }),
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
  otp: z.string({ error: 'validation.required' }).check(z.regex(/^[0-9]{6}$/, { error: 'validation.otpDigits' })),
});
