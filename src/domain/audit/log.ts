// Audit log of admin and sign-in events (spec 02 activity logs).
import type { Db } from '../../db/client';
import { activityLogs } from '../../db/schema';

export interface AuditEvent {
  tenantId: number | null;
  actorUserId: number | null;
  action: string;
  targetType?: string;
  targetId?: string | number;
  ipAddress?: string | null;
  userAgent?: string | null;
  details?: Record<string, unknown>;
}

export function auditInsert(db: Db, e: AuditEvent, now: number) {
  return db.insert(activityLogs).values({
    tenantId: e.tenantId,
    actorUserId: e.actorUserId,
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
