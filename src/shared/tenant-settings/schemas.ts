// Tenant-settings schemas shared by the admin screens and the server (spec 02 section 5).
// Messages are i18n keys.
import * as z from 'zod/mini';

/** 2-63 characters; letters or digits at both ends; letters, digits, "_" or "-" between. */
export const SUBDOMAIN_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?$/;

export const subdomainSchema = z.object({
  subdomain: z.nullable(
    z.string().check(
      z.trim(),
      z.minLength(2, { error: 'admin.subdomain.tooShort', abort: true }),
      z.maxLength(63, { error: 'admin.subdomain.invalid', abort: true }),
      z.regex(SUBDOMAIN_PATTERN, { error: 'admin.subdomain.invalid' }),
    ),
  ),
});

export const whitelistedIpSchema = z
  .object({
    // IPv4 as spec 02 says (four dotted groups, /1-/32); anything with a colon is read as IPv6.
    ipAddress: z.string().check(z.regex(/^(?:\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}|[0-9A-Fa-f:.]{2,45})$/, { error: 'admin.ip.invalid' })),
    prefixLength: z.optional(z.number().check(z.int(), z.gte(1, { error: 'admin.ip.invalid' }), z.lte(128, { error: 'admin.ip.invalid' }))),
    description: z.optional(z.nullable(z.string().check(z.maxLength(255)))),
  })
  .check(
    z.refine((v) => v.ipAddress.includes(':') || v.prefixLength === undefined || v.prefixLength <= 32, {
      error: 'admin.ip.invalid',
      path: ['prefixLength'],
    }),
  );

/** The prefix an entry without one gets: the single address. */
export function defaultPrefix(ipAddress: string): number {
  return ipAddress.includes(':') ? 128 : 32;
}

/** Who must have a passkey (decision 0039); absent: unchanged. */
export const PASSKEY_POLICIES = ['allowed', 'admins', 'everyone'] as const;
export type PasskeyPolicy = (typeof PASSKEY_POLICIES)[number];

export const twofaPolicySchema = z.object({ isTwofaEnforced: z.boolean(), isTwofaSkipAllowed: z.boolean(), passkeyPolicy: z.optional(z.enum(PASSKEY_POLICIES)) });

export const passwordPolicySchema = z.object({
  minimumPasswordLength: z.number({ error: 'admin.passwordPolicy.minLength' }).check(
    z.int({ error: 'admin.passwordPolicy.minLength' }),
    z.gte(8, { error: 'admin.passwordPolicy.minLength' }),
    z.lte(128, { error: 'admin.passwordPolicy.maxLength' }),
  ),
  isMixedCaseRequired: z.boolean(),
  isNumberRequired: z.boolean(),
  isSpecialCharacterRequired: z.boolean(),
});
