// The activity-log screen (spec 02 route activity-logs, content ours to decide: decision 0021):
// the tenant's audit entries newest first, one page at a time by keyset (created_at, id), so the
// screen stays fast on a tenant with millions of entries and pages never shift as entries arrive.
import { and, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import { activityLogs } from '../../db/schema';
import type { TenantScope } from '../tenants/scope';

export const ACTIVITY_PAGE_SIZE = 50;

/** A position in the log: entries strictly older than this one come next. */
export interface ActivityCursor {
  createdAt: number;
  id: number;
}

/** `?before=<created_at>.<id>`; anything else is the newest page. */
export function parseCursor(value: string | undefined): ActivityCursor | null {
  const m = /^(\d{1,15})\.(\d{1,15})$/.exec(value ?? '');
  return m ? { createdAt: Number(m[1]), id: Number(m[2]) } : null;
}

export function formatCursor(c: ActivityCursor): string {
  return `${c.createdAt}.${c.id}`;
}

export interface ActivityEntry {
  id: number;
  createdAt: number;
  actorName: string | null;
  actorEmail: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
}

/** The columns of an entry as the screen shows it. */
const ENTRY_COLUMNS = {
  id: activityLogs.id,
  createdAt: activityLogs.createdAt,
  actorName: activityLogs.actorName,
  actorEmail: activityLogs.actorEmail,
  action: activityLogs.action,
  targetType: activityLogs.targetType,
  targetId: activityLogs.targetId,
  ipAddress: activityLogs.ipAddress,
  userAgent: activityLogs.userAgent,
};

/**
 * What the screen narrows the log to (GET query parameters, decision 0032): part of the actor's
 * name or address; an action, exact ("user.created") or a family ("user.*"); a time range [from, to).
 */
export interface ActivityFilter {
  actor?: string;
  action?: string;
  from?: number;
  to?: number;
}

/** LIKE with the pattern characters of `text` taken literally (ESCAPE '\\'). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function filterConditions(f: ActivityFilter): (SQL | undefined)[] {
  const conditions: (SQL | undefined)[] = [];
  if (f.actor) {
    const pattern = `%${likeLiteral(f.actor)}%`;
    conditions.push(sql`(${activityLogs.actorName} LIKE ${pattern} ESCAPE '\\' OR ${activityLogs.actorEmail} LIKE ${pattern} ESCAPE '\\')`);
  }
  if (f.action) {
    const prefix = `${likeLiteral(f.action.slice(0, -1))}%`;
    conditions.push(f.action.endsWith('.*') ? sql`${activityLogs.action} LIKE ${prefix} ESCAPE '\\'` : eq(activityLogs.action, f.action));
  }
  if (f.from !== undefined) conditions.push(gte(activityLogs.createdAt, f.from));
  if (f.to !== undefined) conditions.push(lt(activityLogs.createdAt, f.to));
  return conditions;
}

/** One entry of the tenant's log, with its details, for the screen's detail panel. */
export async function getActivity(scope: TenantScope, id: number): Promise<(ActivityEntry & { details: unknown }) | null> {
  const row = await scope.db
    .select({ ...ENTRY_COLUMNS, details: activityLogs.details })
    .from(activityLogs)
    .where(scope.own(activityLogs, eq(activityLogs.id, id)))
    .get();
  return row ?? null;
}

export async function listActivity(
  scope: TenantScope,
  before: ActivityCursor | null,
  limit = ACTIVITY_PAGE_SIZE,
  filter: ActivityFilter = {},
): Promise<{ entries: ActivityEntry[]; next: ActivityCursor | null }> {
  const rows = await scope.db
    .select(ENTRY_COLUMNS)
    .from(activityLogs)
    .where(
      scope.own(
        activityLogs,
        before ? or(lt(activityLogs.createdAt, before.createdAt), and(eq(activityLogs.createdAt, before.createdAt), lt(activityLogs.id, before.id))) : undefined,
        ...filterConditions(filter),
      ),
    )
    .orderBy(desc(activityLogs.createdAt), desc(activityLogs.id))
    .limit(limit + 1);
  const entries = rows.slice(0, limit);
  const last = entries[entries.length - 1];
  return { entries, next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null };
}
