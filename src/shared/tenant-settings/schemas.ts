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

/**
 * The lock-out previews (decision 0043): a change that can keep people out, described before it
 * is saved. The save itself carries `confirmAffected`, the count the admin confirmed.
 */
export const lockoutChangeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('twofa'), isTwofaEnforced: z.boolean(), isTwofaSkipAllowed: z.boolean() }),
  z.object({ kind: z.literal('ip-enable') }),
  z.object({ kind: z.literal('ip-delete'), id: z.number().check(z.int(), z.gte(1)) }),
  z.object({ kind: z.literal('password-policy'), policy: passwordPolicySchema }),
  z.object({ kind: z.literal('sso-for-all') }),
]);
export type LockoutChange = z.output<typeof lockoutChangeSchema>;

/** The count an admin confirmed, on the saves that can lock people out (absent: none confirmed). */
const confirmAffected = z.optional(z.coerce.number().check(z.int(), z.gte(0)));
export const confirmAffectedSchema = z.object({ confirmAffected });
/** The saves with a body carry the confirmed count beside their fields. */
export const twofaSaveSchema = z.extend(twofaPolicySchema, { confirmAffected });
export const passwordPolicySaveSchema = z.extend(passwordPolicySchema, { confirmAffected });

/** Why a person is counted: the preview's reasons, each a text key under admin.lockout.reason. */
export type LockoutReason = 'noSecondFactor' | 'notRegistered' | 'outsideAllowlist' | 'neverSso' | 'passwordTooWeak';

export interface LockoutPerson {
  userId: number;
  name: string;
  email: string;
  reason: LockoutReason;
  /** SSO: the member has a SAML name id stored (the IdP may still know them under it). */
  hasNameId?: boolean;
}

export interface LockoutPreview {
  kind: LockoutChange['kind'];
  /** Members the change keeps out (or makes act) at their next sign-in: what the confirmation names. */
  affected: number;
  /** Active members looked at. */
  members: number;
  /** Members whose state cannot be known: no sign-in in the last 30 days (IP), a password not typed since traits are kept. */
  unknown: number;
  /** 2FA: of the affected, those who can set it up at their next sign-in (they have a password) and those who will at registration. */
  enrolAtSignIn?: number;
  enrolAtRegistration?: number;
  /** IP: whether the admin's own current address is inside the new list (enabling needs it). */
  ownAddressAllowed?: boolean;
  ownAddress?: string | null;
  /** A save of this change must carry `confirmAffected` equal to `affected`. */
  confirmationRequired: boolean;
  /** The first PREVIEW_PEOPLE affected people, by name. */
  people: LockoutPerson[];
}

export const PREVIEW_PEOPLE = 100;
