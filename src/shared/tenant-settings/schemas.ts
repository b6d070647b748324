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

export const twofaPolicySchema = z.object({ isTwofaEnforced: z.boolean(), isTwofaSkipAllowed: z.boolean() });

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

const requiredText = (max: number) =>
  z.string({ error: 'validation.required' }).check(z.trim(), z.minLength(1, { error: 'validation.required', abort: true }), z.maxLength(max));

export const contactSchema = z.object({
  companyName: requiredText(255),
  name: requiredText(255),
  department: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(255)))),
  position: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(255)))),
  email: z.string({ error: 'validation.required' }).check(
    z.trim(),
    z.minLength(1, { error: 'validation.required', abort: true }),
    z.maxLength(254, { error: 'admin.contacts.emailInvalid', abort: true }),
    z.email({ error: 'admin.contacts.emailInvalid' }),
  ),
  contactNumber: requiredText(32),
  postalCode: requiredText(16),
  address: requiredText(500),
});

export const BULK_EMAIL_PLANS = [10_000, 20_000, 30_000, 50_000, 100_000, 300_000, 700_000] as const;
export const COUNT_KEYS = ['addMeishiUsers', 'addSchedulerUsers', 'addMeishiBnUsers', 'addSsoUsers', 'addScannerKeys'] as const;
export const FLAG_KEYS = ['subscribeToKintone', 'subscribeToSalesforce', 'subscribeToRelation', 'subscribeToGeniee', 'subscribeToSSO', 'subscribeToIpRestriction'] as const;

export const moreServicesSchema = z.array(
  z.union([
    z.object({ key: z.enum(COUNT_KEYS), value: z.number().check(z.int(), z.gte(0), z.lte(100_000)) }),
    z.object({ key: z.enum(FLAG_KEYS), value: z.literal(true) }),
    z.object({ key: z.literal('subscribeToHigherBulkEmailPlan'), value: z.number().check(z.refine((v) => (BULK_EMAIL_PLANS as readonly number[]).includes(v))) }),
  ]),
).check(z.minLength(1), z.maxLength(20));

/** Hosts a browser treats as this machine: an IdP there may use plain http (development). */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * SAML IdP settings (spec 02 "SAML setting"): write names idpEntityId, idpSsoUrl, idpSloUrl,
 * idpCertificate. The browser carries sign-on and sign-out messages to these URLs, so they must
 * be https (plain http only on a loopback host, for a development IdP).
 */
const httpsUrl = (error: string) =>
  z.string({ error: 'validation.required' }).check(
    z.trim(),
    z.minLength(1, { error: 'validation.required', abort: true }),
    z.maxLength(1024, { error, abort: true }),
    z.refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.has(u.hostname))) && !u.username && !u.password;
      } catch {
        return false;
      }
    }, { error }),
  );

export const samlSettingSchema = z.object({
  idpEntityId: z.string({ error: 'validation.required' }).check(
    z.trim(),
    z.minLength(1, { error: 'validation.required', abort: true }),
    z.maxLength(1024, { error: 'sso.errors.entityId' }),
    z.regex(/^\S+$/, { error: 'sso.errors.entityId' }),
  ),
  idpSsoUrl: httpsUrl('sso.errors.url'),
  idpSloUrl: z.optional(z.nullable(z.union([z.literal(''), httpsUrl('sso.errors.url')]))),
  idpCertificate: z.string({ error: 'validation.required' }).check(
    z.trim(),
    z.minLength(1, { error: 'validation.required', abort: true }),
    z.maxLength(20_000, { error: 'sso.errors.certificate' }),
  ),
});
export type SamlSettingInput = z.output<typeof samlSettingSchema>;

export const idpStatusSchema = z.object({ isIdpConfigured: z.boolean() });
