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

/** Four dotted groups of 1-3 digits, optional /1../32 (spec 02 "IP entry"). */
export const IP_ENTRY_PATTERN = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/;

export function parseIpEntry(value: string): { ipAddress: string; prefixLength: number } | 'invalid' | 'local' {
  const m = IP_ENTRY_PATTERN.exec(value.trim());
  if (!m) return 'invalid';
  const octets = m.slice(1, 5).map(Number);
  if (octets.some((o) => o > 255)) return 'invalid';
  const prefix = m[5] === undefined ? 32 : Number(m[5]);
  if (prefix < 1 || prefix > 32) return 'invalid';
  if (octets[0] === 127) return 'local';
  return { ipAddress: octets.join('.'), prefixLength: prefix };
}

export const whitelistedIpSchema = z.object({
  ipAddress: z.string().check(z.regex(/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/, { error: 'admin.ip.invalid' })),
  prefixLength: z._default(z.optional(z.number().check(z.int(), z.gte(1, { error: 'admin.ip.invalid' }), z.lte(32, { error: 'admin.ip.invalid' }))), 32),
  description: z.optional(z.nullable(z.string().check(z.maxLength(255)))),
});

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
