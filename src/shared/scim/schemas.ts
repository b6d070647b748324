// The "Provisioning (SCIM)" admin screen's calls (decision 0040), shared by the island and the
// server. Messages are i18n keys. The SCIM protocol itself (/accounts/scim/v2) is described by its
// own discovery endpoints (ServiceProviderConfig, ResourceTypes, Schemas), not here.
//
//  GET    /admin/scim                       A  -> ScimOverview
//  POST   /admin/scim/tokens {name, expiresInDays}   A  -> 201 {message: 'success', token: <secret, shown once>, summary: ScimTokenSummary}
//           error 422 invalid-token-name | 422 invalid-token-lifetime | 409 scim-token-limit {max} | 403 feature-not-subscribed
//  DELETE /admin/scim/tokens/{id}           A  -> {message: 'success'} | 404 not-found
//  PATCH  /admin/scim/settings {apps}       A  -> {message: 'success', apps} | 422 app-not-contracted | 403 feature-not-subscribed
import * as z from 'zod/mini';

/** Token lifetimes offered, in days (a year by default, at most two). */
export const SCIM_TOKEN_LIFETIME_DAYS = { default: 365, min: 1, max: 730 } as const;
export const SCIM_TOKEN_LIFETIME_CHOICES = [30, 90, 180, 365, 730] as const;
/** Letters, digits and spaces of any script, and . _ @ : ( ) / - (full-width parentheses too); 1-100. */
export const SCIM_TOKEN_NAME_PATTERN = /^[\p{L}\p{N}\p{Zs}._@:()（）/・-]{1,100}$/u;

export const SCIM_APPS = ['meishi', 'scheduler'] as const;
export type ScimApp = (typeof SCIM_APPS)[number];

export const scimTokenCreateSchema = z.object({
  name: z.string({ error: 'validation.required' }).check(
    z.trim(),
    z.minLength(1, { error: 'validation.required', abort: true }),
    z.maxLength(100, { error: 'scim.tokens.nameInvalid', abort: true }),
    z.regex(SCIM_TOKEN_NAME_PATTERN, { error: 'scim.tokens.nameInvalid' }),
  ),
  expiresInDays: z._default(z.optional(z.number().check(z.int(), z.gte(SCIM_TOKEN_LIFETIME_DAYS.min), z.lte(SCIM_TOKEN_LIFETIME_DAYS.max))), SCIM_TOKEN_LIFETIME_DAYS.default),
});
export type ScimTokenCreateInput = z.output<typeof scimTokenCreateSchema>;

export const scimSettingsSchema = z.object({
  apps: z.array(z.enum(SCIM_APPS)).check(z.minLength(1, { error: 'scim.apps.required' }), z.maxLength(SCIM_APPS.length)),
});
export type ScimSettingsInput = z.output<typeof scimSettingsSchema>;

export interface ScimTokenSummary {
  id: number;
  name: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  /** The admin who made it (name), or null when the operators' CLI did. */
  createdBy: string | null;
  state: 'active' | 'expired' | 'revoked';
}

export interface ScimOverview {
  /** The tenant has the SSO subscription that SCIM comes with. */
  subscribed: boolean;
  /** The SCIM base URL on the tenant's initial subdomain (stable, like the SAML entity id). */
  baseUrl: string;
  tokens: ScimTokenSummary[];
  /** Apps given to the people SCIM creates, and the contracted apps to choose from (seats: null = unlimited). */
  apps: ScimApp[];
  contractedApps: { key: ScimApp; seats: number | null; availableSeats: number | null }[];
  /** The tenant's SSO switch: provisioned people sign in through the IdP (no invitation mail) when on. */
  ssoEnabled: boolean;
}
