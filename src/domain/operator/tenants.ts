// Tenants as the provider's staff run them (operator API): create with the first administrator,
// change name, status, apps and seats, features and limits, contract and trial dates; read them.
// Every call is audited (actor: the operator token, not a user).
import { and, count, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { contractDetails, tenantApps, tenants, tenantUsers, users, type Tenant } from '../../db/schema';
import type { CreateTenantInput, UpdateTenantInput } from '../../shared/operator/schemas';
import { auditInsert, type AuditEvent } from '../audit/log';
import { sendInvitation } from '../account/registration';
import { AppError, isUniqueViolation } from '../errors';
import { RESERVED_SUBDOMAINS } from '../tenant-settings/settings';
import type { OperatorIdentity } from './tokens';
import { forgetHosts } from '../tenants/hosts';

export interface OperatorActor {
  identity: OperatorIdentity;
  ip: string | null;
  userAgent: string | null;
}

/** Audit entry of an operator call: no user acts, the token does (named in details). */
export function operatorAudit(actor: OperatorActor, action: string, e: { tenantId?: AuditEvent['tenantId']; targetType?: string; targetId?: string | number; details?: Record<string, unknown> }) {
  return {
    tenantId: e.tenantId ?? null,
    actorUserId: null,
    action: `operator.${action}`,
    targetType: e.targetType,
    targetId: e.targetId,
    ipAddress: actor.ip,
    userAgent: actor.userAgent,
    details: { operatorTokenId: actor.identity.tokenId, operatorTokenName: actor.identity.tokenName, ...e.details },
  };
}

export async function auditOperator(deps: Deps, actor: OperatorActor, action: string, e: Parameters<typeof operatorAudit>[2] = {}) {
  await auditInsert(deps.db, operatorAudit(actor, action, e), deps.clock.now());
}

export const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());
const ms = (v: string | null | undefined) => (v == null ? null : Date.parse(v));

const FEATURE_TENANT_COLUMNS = ['featureSsoUsersLimit', 'isFeatureIpRestrictionSubscribed', 'isFeatureTwofaEnforcementSubscribed'] as const;
const FEATURE_CONTRACT_COLUMNS = [
  'featureNegotiationsUsersLimit',
  'featureBulkEmailMonthlyLimit',
  'featureScannerAppKeysLimit',
  'isFeatureKintoneSubscribed',
  'isFeatureSalesforceSubscribed',
  'isFeatureRelationSubscribed',
  'isFeatureGenieeSubscribed',
] as const;

function pick<T extends object, K extends keyof T>(o: T | undefined, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  if (!o) return out;
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

function contractColumns(input: { features?: UpdateTenantInput['features']; contract?: UpdateTenantInput['contract'] }) {
  const c = input.contract ?? {};
  const out: Partial<typeof contractDetails.$inferInsert> = pick(input.features, FEATURE_CONTRACT_COLUMNS);
  if (c.trialEndsAt !== undefined) out.trialEndsAt = ms(c.trialEndsAt);
  if (c.contractStartsAt !== undefined) out.contractStartsAt = ms(c.contractStartsAt);
  if (c.contractEndsAt !== undefined) out.contractEndsAt = ms(c.contractEndsAt);
  if (c.contractRenewsAt !== undefined) out.contractRenewsAt = ms(c.contractRenewsAt);
  return out;
}

const ACCESS_COLUMN = { meishi: 'meishiAccessGrantedAt', scheduler: 'schedulerAccessGrantedAt', meishi_operator: 'meishiOperatorAccessGrantedAt' } as const;

/** The operator's view of tenants (two queries per list, no N+1). */
async function views(deps: Deps, rows: Tenant[]) {
  const { db } = deps;
  if (rows.length === 0) return [];
  const ids = rows.map((t) => t.id);
  const [apps, contracts, members] = await Promise.all([
    db.select().from(tenantApps).where(inArray(tenantApps.tenantId, ids)),
    db.select().from(contractDetails).where(inArray(contractDetails.tenantId, ids)),
    db
      .select({
        tenantId: tenantUsers.tenantId,
        active: count(),
        admins: sql<number>`sum(case when ${tenantUsers.isAdmin} then 1 else 0 end)`,
        meishi: count(tenantUsers.meishiAccessGrantedAt),
        scheduler: count(tenantUsers.schedulerAccessGrantedAt),
        meishi_operator: count(tenantUsers.meishiOperatorAccessGrantedAt),
      })
      .from(tenantUsers)
      .where(and(inArray(tenantUsers.tenantId, ids), isNull(tenantUsers.deactivatedAt), isNull(tenantUsers.operationStatus)))
      .groupBy(tenantUsers.tenantId),
  ]);
  return rows.map((t) => {
    const cd = contracts.find((c) => c.tenantId === t.id);
    const m = members.find((x) => x.tenantId === t.id);
    return {
      id: t.id,
      name: t.name,
      initialSubdomain: t.initialSubdomain,
      subdomain: t.subdomain,
      status: t.status,
      apps: apps.filter((a) => a.tenantId === t.id).map((a) => ({ app: a.app, seats: a.seats, used: m ? Number(m[a.app]) : 0 })),
      features: {
        featureSsoUsersLimit: t.featureSsoUsersLimit,
        isFeatureIpRestrictionSubscribed: t.isFeatureIpRestrictionSubscribed,
        isFeatureTwofaEnforcementSubscribed: t.isFeatureTwofaEnforcementSubscribed,
        featureNegotiationsUsersLimit: cd?.featureNegotiationsUsersLimit ?? 0,
        featureBulkEmailMonthlyLimit: cd?.featureBulkEmailMonthlyLimit ?? 0,
        featureScannerAppKeysLimit: cd?.featureScannerAppKeysLimit ?? 0,
        isFeatureKintoneSubscribed: cd?.isFeatureKintoneSubscribed ?? false,
        isFeatureSalesforceSubscribed: cd?.isFeatureSalesforceSubscribed ?? false,
        isFeatureRelationSubscribed: cd?.isFeatureRelationSubscribed ?? false,
        isFeatureGenieeSubscribed: cd?.isFeatureGenieeSubscribed ?? false,
      },
      contract: {
        trialEndsAt: iso(cd?.trialEndsAt),
        contractStartsAt: iso(cd?.contractStartsAt),
        contractEndsAt: iso(cd?.contractEndsAt),
        contractRenewsAt: iso(cd?.contractRenewsAt),
      },
      members: { active: m?.active ?? 0, admins: Number(m?.admins ?? 0) },
      createdAt: iso(t.createdAt),
      updatedAt: iso(t.updatedAt),
    };
  });
}
export type TenantView = Awaited<ReturnType<typeof views>>[number];

async function findTenant(deps: Deps, id: number): Promise<Tenant> {
  const t = await deps.db.select().from(tenants).where(eq(tenants.id, id)).get();
  if (!t) throw new AppError('not-found');
  return t;
}

export async function getTenant(deps: Deps, actor: OperatorActor, id: number): Promise<TenantView> {
  const t = await findTenant(deps, id);
  await auditOperator(deps, actor, 'tenant_read', { tenantId: t.id, targetType: 'tenant', targetId: t.id });
  return (await views(deps, [t]))[0]!;
}

export async function listTenants(deps: Deps, actor: OperatorActor, q: { status?: Tenant['status']; q?: string }): Promise<TenantView[]> {
  const { db } = deps;
  const filters = [];
  if (q.status) filters.push(eq(tenants.status, q.status));
  if (q.q) {
    // LIKE with the user's text escaped, so "%" and "_" match themselves.
    const pattern = `%${q.q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    filters.push(
      or(
        sql`lower(${tenants.name}) like ${pattern} escape '\\'`,
        sql`${tenants.initialSubdomain} like ${pattern} escape '\\'`,
        sql`coalesce(${tenants.subdomain}, '') like ${pattern} escape '\\'`,
      ),
    );
  }
  const rows = await db.select().from(tenants).where(and(...filters)).orderBy(desc(tenants.id));
  await auditOperator(deps, actor, 'tenants_listed', { details: { filter: q } });
  return views(deps, rows);
}

/**
 * POST operator/tenants. One batch creates the tenant, its apps, its contract row, the first
 * administrator (a new user, or an existing one by email) with access to every contracted app,
 * and the audit entry; then the invitation mail goes out (a user who already has a password is
 * simply added: they sign in as they do today).
 */
export async function createTenant(deps: Deps, actor: OperatorActor, input: CreateTenantInput) {
  const { db, clock } = deps;
  const label = input.subdomain;
  if (RESERVED_SUBDOMAINS.has(label)) throw new AppError('subdomain-reserved');
  const taken = await db.select({ id: tenants.id }).from(tenants).where(or(eq(tenants.initialSubdomain, label), eq(tenants.subdomain, label))).get();
  if (taken) throw new AppError('subdomain-taken');
  const now = clock.now();
  const email = input.admin.email.toLowerCase();
  // The new tenant's id is not known inside the batch (D1 has no interactive transactions):
  // later statements find it by its unique initial subdomain.
  const tenantId = sql<number>`(select id from tenants where initial_subdomain = ${label})`;
  const userId = sql<number>`(select id from users where email = ${email})`;
  const access: Partial<typeof tenantUsers.$inferInsert> = {};
  for (const a of input.apps) access[ACCESS_COLUMN[a.app]] = now;
  try {
    await db.batch([
      db.insert(tenants).values({
        name: input.name,
        initialSubdomain: label,
        status: input.status,
        ...pick(input.features, FEATURE_TENANT_COLUMNS),
        createdAt: now,
        updatedAt: now,
      }),
      db.insert(tenantApps).values(input.apps.map((a) => ({ tenantId, app: a.app, seats: a.seats, createdAt: now }))),
      db.insert(contractDetails).values({ tenantId, ...contractColumns(input), updatedAt: now }),
      db
        .insert(users)
        .values({ name: input.admin.name, email, language: input.admin.language, createdAt: now, updatedAt: now })
        .onConflictDoNothing({ target: users.email }),
      db.insert(tenantUsers).values({ tenantId, userId, isAdmin: true, invitedAt: now, createdAt: now, updatedAt: now, ...access }),
      auditInsert(
        db,
        operatorAudit(actor, 'tenant_created', {
          tenantId,
          targetType: 'tenant',
          details: { subdomain: label, name: input.name, status: input.status, apps: input.apps, admin: email },
        }),
        now,
      ),
    ]);
  } catch (e) {
    // A concurrent create took the label between the check and the batch (unique index).
    if (isUniqueViolation(e, 'tenants') || isUniqueViolation(e, 'tenant_hosts')) throw new AppError('subdomain-taken');
    throw e;
  }
  forgetHosts(db);
  const tenant = (await db.select().from(tenants).where(eq(tenants.initialSubdomain, label)).get())!;
  const admin = (await db.select().from(users).where(eq(users.email, email)).get())!;
  let invitation: 'sent' | 'not-needed' | 'failed' = 'not-needed';
  if (!admin.passwordHash) {
    try {
      await sendInvitation(deps, admin, tenant);
      invitation = 'sent';
    } catch (e) {
      // The tenant exists either way; the operator sees that the mail did not go out.
      console.error(JSON.stringify({ level: 'error', event: 'operator.invitation_failed', tenantId: tenant.id, error: String(e) }));
      invitation = 'failed';
    }
  }
  return { tenant: (await views(deps, [tenant]))[0]!, admin: { id: admin.id, email: admin.email, name: admin.name, invitation } };
}

/** PATCH operator/tenants/{id}: only the fields given change; `apps` replaces the whole set. */
export async function updateTenant(deps: Deps, actor: OperatorActor, id: number, input: UpdateTenantInput): Promise<TenantView> {
  const { db, clock } = deps;
  const t = await findTenant(deps, id);
  const now = clock.now();
  const tenantSet = { ...pick(input, ['name', 'status'] as const), ...pick(input.features, FEATURE_TENANT_COLUMNS) };
  const contractSet = contractColumns(input);
  const statements = [
    db.update(tenants).set({ ...tenantSet, updatedAt: now }).where(eq(tenants.id, t.id)),
    auditInsert(db, operatorAudit(actor, 'tenant_updated', { tenantId: t.id, targetType: 'tenant', targetId: t.id, details: { changes: input } }), now),
  ];
  if (input.apps) {
    statements.push(db.delete(tenantApps).where(eq(tenantApps.tenantId, t.id)) as never);
    if (input.apps.length) statements.push(db.insert(tenantApps).values(input.apps.map((a) => ({ tenantId: t.id, app: a.app, seats: a.seats, createdAt: now }))) as never);
  }
  if (Object.keys(contractSet).length) {
    statements.push(
      db
        .insert(contractDetails)
        .values({ tenantId: t.id, ...contractSet, updatedAt: now })
        .onConflictDoUpdate({ target: contractDetails.tenantId, set: { ...contractSet, updatedAt: now } }) as never,
    );
  }
  await db.batch(statements as [typeof statements[0], ...typeof statements]);
  forgetHosts(db);
  return (await views(deps, [await findTenant(deps, t.id)]))[0]!;
}
