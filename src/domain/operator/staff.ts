// Operator calls other than tenants: tenant managers (provider staff who may open any tenant's
// manager pages), maintenance messages per app, and pending service requests.
import { and, desc, eq, isNull, type SQL } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { maintenanceMessages, serviceRequests, tenants, users } from '../../db/schema';
import type { MaintenanceMessageInput } from '../../shared/operator/schemas';
import { auditInsert } from '../audit/log';
import { AppError } from '../errors';
import { auditOperator, iso, operatorAudit, type OperatorActor } from './tenants';

export async function listManagers(deps: Deps, actor: OperatorActor) {
  const rows = await deps.db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.isTenantManager, true))
    .orderBy(users.email);
  await auditOperator(deps, actor, 'managers_listed');
  return rows;
}

/**
 * Grant or revoke is_tenant_manager. The user must exist (staff sign in with their own account).
 * A revoked manager loses tenant hosts at the next request: the session check reads the flag.
 */
export async function setManager(deps: Deps, actor: OperatorActor, email: string, isManager: boolean) {
  const { db, clock } = deps;
  const user = await db.select().from(users).where(eq(users.email, email.toLowerCase())).get();
  if (!user) throw new AppError('user-not-found');
  const now = clock.now();
  await db.batch([
    db.update(users).set({ isTenantManager: isManager, updatedAt: now }).where(eq(users.id, user.id)),
    auditInsert(db, operatorAudit(actor, isManager ? 'manager_granted' : 'manager_revoked', { targetType: 'user', targetId: user.id, details: { email: user.email } }), now),
  ]);
  return { id: user.id, name: user.name, email: user.email, isTenantManager: isManager };
}

function messageView(r: typeof maintenanceMessages.$inferSelect, now: number) {
  const active = (r.startsAt === null || r.startsAt <= now) && (r.endsAt === null || r.endsAt > now);
  return { id: r.id, app: r.app, messageJa: r.messageJa, messageEn: r.messageEn, startsAt: iso(r.startsAt), endsAt: iso(r.endsAt), active, createdAt: iso(r.createdAt) };
}

/** Messages not yet ended (or all), newest first. The banner shows the newest one in force per app. */
export async function listMaintenance(deps: Deps, actor: OperatorActor, all = false) {
  const now = deps.clock.now();
  const rows = await deps.db.select().from(maintenanceMessages).orderBy(desc(maintenanceMessages.id));
  await auditOperator(deps, actor, 'maintenance_listed');
  return rows.filter((r) => all || r.endsAt === null || r.endsAt > now).map((r) => messageView(r, now));
}

export async function postMaintenance(deps: Deps, actor: OperatorActor, input: MaintenanceMessageInput) {
  const { db, clock } = deps;
  const now = clock.now();
  const [row] = await db.batch([
    db
      .insert(maintenanceMessages)
      .values({
        app: input.app,
        messageJa: input.messageJa,
        messageEn: input.messageEn,
        startsAt: input.startsAt ? Date.parse(input.startsAt) : null,
        endsAt: input.endsAt ? Date.parse(input.endsAt) : null,
        createdAt: now,
      })
      .returning(),
    auditInsert(db, operatorAudit(actor, 'maintenance_posted', { targetType: 'maintenance_message', details: { app: input.app, startsAt: input.startsAt ?? null, endsAt: input.endsAt ?? null } }), now),
  ]);
  return messageView(row[0]!, now);
}

/** DELETE operator/maintenance-messages/{id}: the banner disappears at once. */
export async function deleteMaintenance(deps: Deps, actor: OperatorActor, id: number) {
  const { db, clock } = deps;
  const now = clock.now();
  const gone = await db.delete(maintenanceMessages).where(eq(maintenanceMessages.id, id)).returning({ id: maintenanceMessages.id });
  if (gone.length === 0) throw new AppError('not-found');
  await auditInsert(db, operatorAudit(actor, 'maintenance_deleted', { targetType: 'maintenance_message', targetId: id }), now);
}

export async function listServiceRequests(
  deps: Deps,
  actor: OperatorActor,
  q: { kind?: 'get_more_services' | 'contract_application'; state: 'pending' | 'all'; tenantId?: string },
) {
  const filters: SQL[] = [];
  if (q.kind) filters.push(eq(serviceRequests.kind, q.kind));
  if (q.state === 'pending') filters.push(isNull(serviceRequests.handledAt));
  if (q.tenantId) filters.push(eq(serviceRequests.tenantId, Number(q.tenantId)));
  const rows = await deps.db
    .select({ r: serviceRequests, tenantName: tenants.name, initialSubdomain: tenants.initialSubdomain, userName: users.name, userEmail: users.email })
    .from(serviceRequests)
    .innerJoin(tenants, eq(tenants.id, serviceRequests.tenantId))
    .leftJoin(users, eq(users.id, serviceRequests.userId))
    .where(and(...filters))
    .orderBy(desc(serviceRequests.createdAt), desc(serviceRequests.id))
    .limit(500);
  await auditOperator(deps, actor, 'service_requests_listed', { details: { filter: q } });
  return rows.map(({ r, ...x }) => ({
    id: r.id,
    kind: r.kind,
    tenant: { id: r.tenantId, name: x.tenantName, initialSubdomain: x.initialSubdomain },
    requestedBy: r.userId === null ? null : { id: r.userId, name: x.userName, email: x.userEmail },
    payload: r.payload,
    createdAt: iso(r.createdAt),
    handledAt: iso(r.handledAt),
  }));
}

/** POST operator/service-requests/{id}/handled: takes it off the pending list (once). */
export async function markRequestHandled(deps: Deps, actor: OperatorActor, id: number) {
  const { db, clock } = deps;
  const now = clock.now();
  const row = await db.select().from(serviceRequests).where(eq(serviceRequests.id, id)).get();
  if (!row) throw new AppError('not-found');
  const done = await db
    .update(serviceRequests)
    .set({ handledAt: now })
    .where(and(eq(serviceRequests.id, id), isNull(serviceRequests.handledAt)))
    .returning({ id: serviceRequests.id });
  if (done.length === 0) throw new AppError('already-handled');
  await auditInsert(db, operatorAudit(actor, 'service_request_handled', { tenantId: row.tenantId, targetType: 'service_request', targetId: id }), now);
  return { id, handledAt: iso(now) };
}
