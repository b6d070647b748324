// The activity-log screen (spec 02 route activity-logs, content ours to decide: decision 0021):
// the tenant's audit entries newest first, one page at a time by keyset (created_at, id), so the
// screen stays fast on a tenant with millions of entries and pages never shift as entries arrive.
import { and, desc, eq, gte, lt, or, sql } from 'drizzle-orm';
import type { Placeholders } from '../../db/client';
import { activityLogs } from '../../db/schema';
import { scopedShapes, type TenantScope } from '../tenants/scope';

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

// A page's select is built once per shape (which filters are given, whether it continues from a
// cursor) and sent with the values (src/db/client.ts `prepared`).
type PageValues = { atBefore: number; idBefore: number; actor: string; action: string; from: number; to: number; limit: number };
/** The letters of the parts a page's select has: b(efore), a(ctor), e(xact action), f(amily of actions), s(ince), u(ntil). */
type PageShape = string;

const pageRows = scopedShapes((s, shape: PageShape, p: Placeholders<PageValues>) =>
  s.db
    .select(ENTRY_COLUMNS)
    .from(activityLogs)
    .where(
      s.own(
        activityLogs,
        shape.includes('b') ? or(lt(activityLogs.createdAt, p.atBefore), and(eq(activityLogs.createdAt, p.atBefore), lt(activityLogs.id, p.idBefore))) : undefined,
        shape.includes('a') ? sql`(${activityLogs.actorName} LIKE ${p.actor} ESCAPE '\\' OR ${activityLogs.actorEmail} LIKE ${p.actor} ESCAPE '\\')` : undefined,
        shape.includes('e') ? eq(activityLogs.action, p.action) : undefined,
        shape.includes('f') ? sql`${activityLogs.action} LIKE ${p.action} ESCAPE '\\'` : undefined,
        shape.includes('s') ? gte(activityLogs.createdAt, p.from) : undefined,
        shape.includes('u') ? lt(activityLogs.createdAt, p.to) : undefined,
      ),
    )
    .orderBy(desc(activityLogs.createdAt), desc(activityLogs.id))
    .limit(p.limit),
);

function pageOf(before: ActivityCursor | null, f: ActivityFilter, limit: number): { shape: PageShape; values: PageValues } {
  const family = f.action?.endsWith('.*');
  const shape = [before && 'b', f.actor && 'a', f.action && (family ? 'f' : 'e'), f.from !== undefined && 's', f.to !== undefined && 'u'].filter(Boolean).join('');
  return {
    shape,
    values: {
      atBefore: before?.createdAt ?? 0,
      idBefore: before?.id ?? 0,
      actor: f.actor ? `%${likeLiteral(f.actor)}%` : '',
      action: !f.action ? '' : family ? `${likeLiteral(f.action.slice(0, -1))}%` : f.action,
      from: f.from ?? 0,
      to: f.to ?? 0,
      limit,
    },
  };
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
  const { shape, values } = pageOf(before, filter, limit + 1);
  const rows = await pageRows(scope, shape, values);
  const entries = rows.slice(0, limit);
  const last = entries[entries.length - 1];
  return { entries, next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null };
}
