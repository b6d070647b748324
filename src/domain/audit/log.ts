// Audit log of admin and sign-in events (spec 02 activity logs).
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { activityLogs, users } from '../../db/schema';

export interface AuditEvent {
  /** The tenant, or a sub-select that finds it in the same batch (a tenant being created). */
  tenantId: number | SQL<number> | null;
  actorUserId: number | null;
  /** Who acted when no user did (a SCIM token's name, decision 0040): the entry's actor name. */
  actorName?: string | null;
  action: string;
  targetType?: string;
  targetId?: string | number;
  ipAddress?: string | null;
  userAgent?: string | null;
  details?: Record<string, unknown>;
}

/** The actor's email and name as two SQL values, for raw `INSERT INTO activity_logs` statements. */
export function actorSnapshot(actorUserId: number | null) {
  return sql`(select ${users.email} from ${users} where ${users.id} = ${actorUserId}), (select ${users.name} from ${users} where ${users.id} = ${actorUserId})`;
}

/** The entry, with the actor's email and name copied in by the same statement (no extra trip). */
export function auditInsert(db: Db, e: AuditEvent, now: number) {
  const actor = e.actorUserId;
  return db.insert(activityLogs).values({
    tenantId: e.tenantId,
    actorUserId: actor,
    actorEmail: actor === null ? null : sql`(select ${users.email} from ${users} where ${users.id} = ${actor})`,
    actorName: actor === null ? (e.actorName ?? null) : sql`(select ${users.name} from ${users} where ${users.id} = ${actor})`,
    action: e.action,
    targetType: e.targetType ?? null,
    targetId: e.targetId === undefined ? null : String(e.targetId),
    ipAddress: e.ipAddress ?? null,
    userAgent: e.userAgent?.slice(0, 512) ?? null,
    details: e.details ?? null,
    createdAt: now,
  });
}

export async function audit(db: Db, e: AuditEvent, now: number): Promise<void> {
  await auditInsert(db, e, now);
}
