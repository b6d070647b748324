// Get-more-services requests and contract applications: stored for the provider's staff and
// mailed to the sales address when one is configured.
import { and, eq, gte } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { contractDetails, serviceRequests, type Tenant, type User } from '../../db/schema';
import { BULK_EMAIL_PLANS } from '../../shared/tenant-settings/schemas';
import { AppError } from '../errors';
import { auditInsert } from '../audit/log';

export type ServiceItem = { key: string; value: number | boolean };

export async function requestMoreServices(deps: Deps, tenant: Tenant, user: User, items: ServiceItem[], ip: string | null): Promise<void> {
  const { db, clock, config } = deps;
  // Nothing to ask for: every count 0 and no flag (spec 02 "Get more services" send rule).
  const meaningful = items.filter((i) => i.value === true || (typeof i.value === 'number' && i.value > 0));
  if (meaningful.length === 0) throw new AppError('nothing-requested');
  const plan = items.find((i) => i.key === 'subscribeToHigherBulkEmailPlan');
  if (plan) {
    const cd = await db.select().from(contractDetails).where(eq(contractDetails.tenantId, tenant.id)).get();
    const current = cd?.featureBulkEmailMonthlyLimit ?? 0;
    // Only plans above the current limit are offered.
    if (!(BULK_EMAIL_PLANS as readonly number[]).includes(plan.value as number) || (plan.value as number) <= current) throw new AppError('invalid-plan');
  }
  const now = clock.now();
  await db.batch([
    db.insert(serviceRequests).values({ tenantId: tenant.id, userId: user.id, kind: 'get_more_services', payload: meaningful, createdAt: now }),
    auditInsert(db, { tenantId: tenant.id, actorUserId: user.id, action: 'billing.more_services_requested', ipAddress: ip, details: { items: meaningful } }, now),
  ]);
  if (config.SALES_EMAIL) {
    const lines = meaningful.map((i) => `- ${i.key}: ${String(i.value)}`).join('\n');
    await deps.mailer.send({ to: config.SALES_EMAIL, subject: `[portal] More services: ${tenant.name} (${tenant.initialSubdomain})`, text: `${tenant.name} (${tenant.initialSubdomain})\n${user.name} <${user.email}>\n\n${lines}`, tenantId: tenant.id });
  }
}

/** POST apply-for-contract: once a day per tenant is enough (the prompt hides for the day). */
export async function applyForContract(deps: Deps, tenant: Tenant, user: User, ip: string | null): Promise<{ alreadyApplied: boolean }> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const dayStart = now - (now % 86_400_000);
  const today = await db
    .select({ id: serviceRequests.id })
    .from(serviceRequests)
    .where(and(eq(serviceRequests.tenantId, tenant.id), eq(serviceRequests.kind, 'contract_application'), gte(serviceRequests.createdAt, dayStart)))
    .get();
  if (today) return { alreadyApplied: true };
  await db.batch([
    db.insert(serviceRequests).values({ tenantId: tenant.id, userId: user.id, kind: 'contract_application', payload: { status: tenant.status }, createdAt: now }),
    auditInsert(db, { tenantId: tenant.id, actorUserId: user.id, action: 'billing.contract_applied', ipAddress: ip }, now),
  ]);
  if (config.SALES_EMAIL) {
    await deps.mailer.send({ to: config.SALES_EMAIL, subject: `[portal] Contract application: ${tenant.name} (${tenant.initialSubdomain})`, text: `${tenant.name} (${tenant.initialSubdomain}) status ${tenant.status}\n${user.name} <${user.email}>`, tenantId: tenant.id });
  }
  return { alreadyApplied: false };
}
