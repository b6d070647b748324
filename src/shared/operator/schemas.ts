// Operator API schemas (provider staff: tenants, tenant managers, maintenance messages, service
// requests). Used by the server, by the command-line tool and by the OpenAPI description.
// Messages are plain English: this API has no screens, its callers are tools.
import * as z from 'zod/mini';
import { SUBDOMAIN_PATTERN } from '../tenant-settings/schemas';

/** Scopes an operator token may carry; each call names the one it needs. */
export const OPERATOR_SCOPES = [
  'tenants:read',
  'tenants:write',
  'managers:read',
  'managers:write',
  'maintenance:read',
  'maintenance:write',
  'requests:read',
  'requests:write',
] as const;
export type OperatorScope = (typeof OPERATOR_SCOPES)[number];

export const TENANT_STATUSES = ['trial', 'contracted', 'trial_expired_not_yet_contracted', 'contract_ended', 'suspended'] as const;
export const TENANT_APPS = ['meishi', 'scheduler', 'meishi_operator'] as const;
export const MAINTENANCE_APPS = ['accounts', 'meishi', 'scheduler'] as const;

/** An instant as ISO 8601 with an offset ("2026-12-31T00:00:00+09:00"), or null to clear it. */
const instant = z.nullable(z.iso.datetime({ offset: true, error: 'expected an ISO 8601 date-time with offset' }));

const count = z.number().check(z.int(), z.gte(0), z.lte(10_000_000));

const appsSchema = z
  .array(
    z.object({
      app: z.enum(TENANT_APPS),
      /** null = unlimited */
      seats: z.nullable(z.number().check(z.int(), z.gte(0), z.lte(10_000_000))),
    }),
  )
  .check(
    z.maxLength(TENANT_APPS.length),
    z.refine((apps) => new Set(apps.map((a) => a.app)).size === apps.length, { error: 'each app once' }),
  );

/** Feature subscriptions and limits (tenant and contract columns, named as in contract-details). */
export const featuresSchema = z.partial(
  z.object({
    featureSsoUsersLimit: count,
    isFeatureIpRestrictionSubscribed: z.boolean(),
    isFeatureTwofaEnforcementSubscribed: z.boolean(),
    featureNegotiationsUsersLimit: count,
    featureBulkEmailMonthlyLimit: count,
    featureScannerAppKeysLimit: count,
    isFeatureKintoneSubscribed: z.boolean(),
    isFeatureSalesforceSubscribed: z.boolean(),
    isFeatureRelationSubscribed: z.boolean(),
    isFeatureGenieeSubscribed: z.boolean(),
  }),
);

export const contractDatesSchema = z.partial(
  z.object({
    trialEndsAt: instant,
    contractStartsAt: instant,
    contractEndsAt: instant,
    contractRenewsAt: instant,
  }),
);

const name = z.string().check(z.trim(), z.minLength(1), z.maxLength(255));
const email = z.string().check(z.trim(), z.minLength(3), z.maxLength(254), z.email());

export const createTenantSchema = z.object({
  name,
  /** The initial subdomain: the tenant's permanent host label. */
  subdomain: z.string().check(z.trim(), z.toLowerCase(), z.minLength(2), z.maxLength(63), z.regex(SUBDOMAIN_PATTERN)),
  status: z._default(z.optional(z.enum(['trial', 'contracted'])), 'trial'),
  apps: appsSchema.check(z.minLength(1)),
  features: z.optional(featuresSchema),
  contract: z.optional(contractDatesSchema),
  /** The first administrator; invited by mail unless already registered. */
  admin: z.object({
    email,
    name,
    language: z._default(z.optional(z.enum(['ja', 'en'])), 'ja'),
  }),
});
export type CreateTenantInput = z.output<typeof createTenantSchema>;

export const updateTenantSchema = z
  .object({
    name: z.optional(name),
    status: z.optional(z.enum(TENANT_STATUSES)),
    /** Replaces the tenant's whole set of apps. */
    apps: z.optional(appsSchema),
    features: z.optional(featuresSchema),
    contract: z.optional(contractDatesSchema),
  })
  .check(z.refine((v) => Object.values(v).some((x) => x !== undefined), { error: 'nothing to change' }));
export type UpdateTenantInput = z.output<typeof updateTenantSchema>;

export const listTenantsQuerySchema = z.object({
  status: z.optional(z.enum(TENANT_STATUSES)),
  /** Matches the name or either subdomain (substring, case-insensitive). */
  q: z.optional(z.string().check(z.maxLength(100))),
});

export const managerSchema = z.object({ email });

/** GET /operator/sso-certificates: tenants whose IdP certificates end within `days` (decision 0042). */
export const expiringCertificatesQuerySchema = z.object({
  days: z.optional(z.coerce.number().check(z.int(), z.gte(0), z.lte(3650))),
});

export const maintenanceMessageSchema = z
  .object({
    app: z.enum(MAINTENANCE_APPS),
    messageJa: z.string().check(z.trim(), z.minLength(1), z.maxLength(1000)),
    messageEn: z.string().check(z.trim(), z.minLength(1), z.maxLength(1000)),
    startsAt: z.optional(instant),
    endsAt: z.optional(instant),
  })
  .check(
    z.refine((v) => !v.startsAt || !v.endsAt || Date.parse(v.endsAt) > Date.parse(v.startsAt), {
      error: 'endsAt must be after startsAt',
      path: ['endsAt'],
    }),
  );
export type MaintenanceMessageInput = z.output<typeof maintenanceMessageSchema>;

export const serviceRequestsQuerySchema = z.object({
  kind: z.optional(z.enum(['get_more_services', 'contract_application'])),
  /** Pending only unless "all". */
  state: z._default(z.optional(z.enum(['pending', 'all'])), 'pending'),
  tenantId: z.optional(z.string().check(z.regex(/^[1-9][0-9]{0,15}$/))),
});
