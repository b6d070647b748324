// Billing schemas shared by the admin screens and the server (spec 02: contact details, get more
// services). Messages are i18n keys.
import * as z from 'zod/mini';

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
