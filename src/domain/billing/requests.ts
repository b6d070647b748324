// Get-more-services requests and contract applications: stored for the provider's staff and
// mailed to the sales address when one is configured.
import { eq, gte } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { contractDetails, serviceRequests, type User } from '../../db/schema';
import { AppError } from '../errors';
import { auditInsert } from '../audit/log';
import type { TenantScope } from '../tenants/scope';
import { BULK_EMAIL_PLANS } from '../../shared/billing/schemas';

export type ServiceItem = { key: string; value: number | boolean };

export async function requestMoreServices(deps: Deps, scope: TenantScope, user: User, items: ServiceItem[], ip: string | null): Promise<void> {
  const { db, clock, config } = deps;
  // Nothing to ask for: every count 0 and no flag (spec 02 "Get more services" send rule).
  const meaningful = items.filter((i) => i.value === true || (typeof i.value === 'number' && i.value > 0));
  if (meaningful.length === 0) throw new AppError('nothing-requested');
  const plan = items.find((i) => i.key === 'subscribeToHigherBulkEmailPlan');
  if (plan) {
    const cd = await db.select().from(contractDetails).where(scope.own(contractDetails)).get();
    const current = cd?.featureBulkEmailMonthlyLimit ?? 0;
    // Only plans above the current limit are offered.
    if (!(BULK_EMAIL_PLANS as readonly number[]).includes(plan.value as number) || (plan.value as number) <= current) throw new AppError('invalid-plan');
  }
  const now = clock.now();
  await db.batch([
    scope.insert(serviceRequests, { userId: user.id, kind: 'get_more_services', payload: meaningful, createdAt: now }),
    auditInsert(db, { tenantId: scope.id, actorUserId: user.id, action: 'billing.more_services_requested', ipAddress: ip, details: { items: meaningful } }, now),
  ]);
  if (config.SALES_EMAIL) {
    const lines = meaningful.map((i) => `- ${i.key}: ${String(i.value)}`).join('\n');
    await deps.mailer.send({ to: config.SALES_EMAIL, subject: `[portal] More services: ${scope.tenant.name} (${scope.tenant.initialSubdomain})`, text: `${scope.tenant.name} (${scope.tenant.initialSubdomain})\n${user.name} <${user.email}>\n\n${lines}`, tenantId: scope.id });
  }
}

/** POST apply-for-contract: once a day per tenant is enough (the prompt hides for the day). */
export async function applyForContract(deps: Deps, scope: TenantScope, user: User, ip: string | null): Promise<{ alreadyApplied: boolean }> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const dayStart = now - (now % 86_400_000);
  const today = await db
    .select({ id: serviceRequests.id })
    .from(serviceRequests)
    .where(scope.own(serviceRequests, eq(serviceRequests.kind, 'contract_application'), gte(serviceRequests.createdAt, dayStart)))
    .get();
  if (today) return { alreadyApplied: true };
  await db.batch([
    scope.insert(serviceRequests, { userId: user.id, kind: 'contract_application', payload: { status: scope.tenant.status }, createdAt: now }),
    auditInsert(db, { tenantId: scope.id, actorUserId: user.id, action: 'billing.contract_applied', ipAddress: ip }, now),
  ]);
  if (config.SALES_EMAIL) {
    await deps.mailer.send({ to: config.SALES_EMAIL, subject: `[portal] Contract application: ${scope.tenant.name} (${scope.tenant.initialSubdomain})`, text: `${scope.tenant.name} (${scope.tenant.initialSubdomain}) status ${scope.tenant.status}\n${user.name} <${user.email}>`, tenantId: scope.id });
  }
  return { alreadyApplied: false };
}
