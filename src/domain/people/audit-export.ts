// GET admin/activity-logs/export-csv (spec 02 section 7): the tenant's audit log as CSV, streamed
// page by page (keyset over the tenant/created_at index) so a million rows never sit in memory.
// UTF-8 with a byte order mark; RFC 4180 quoting and formula-injection escaping by papaparse.
import Papa from 'papaparse';
import { and, desc, eq, lt, or } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { activityLogs, users } from '../../db/schema';
import type { T } from '../../shared/i18n';
import { SERVER_TIME_ZONE } from '../../shared/dates';

const PAGE = 1000;
/**
 * Cells a spreadsheet could run as a formula start with = + - @, a tab or a carriage return, or
 * their full-width forms (which Excel in Japanese locales also accepts); papaparse prefixes them
 * with an apostrophe (OWASP "CSV injection").
 */
export const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

const parts = new Intl.DateTimeFormat('en-CA', {
  timeZone: SERVER_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

function tokyo(ms: number) {
  const p: Record<string, string> = {};
  for (const x of parts.formatToParts(new Date(ms))) p[x.type] = x.value;
  return p as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string>;
}

/** yyyy-MM-dd HH:mm:ss in the product's time zone. */
export function csvTime(ms: number): string {
  const p = tokyo(ms);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** Localised title + yyyyMMddHHmmss + .csv */
export function exportFilename(t: T, now: number): string {
  const p = tokyo(now);
  return `${t('people.auditCsv.title')}${p.year}${p.month}${p.day}${p.hour}${p.minute}${p.second}.csv`;
}

const encoder = new TextEncoder();
const unparse = (rows: string[][]) => Papa.unparse(rows, { newline: '\r\n', escapeFormulae: FORMULA_START }) + '\r\n';

export function auditCsvStream(deps: Deps, tenantId: number, t: T): ReadableStream<Uint8Array> {
  const { db } = deps;
  let cursor: { createdAt: number; id: number } | null = null;
  let first = true;
  const columns = ['time', 'actor', 'actorEmail', 'action', 'targetType', 'targetId', 'ip', 'userAgent', 'details'].map((k) => t(`people.auditCsv.columns.${k}`));
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (first) {
            first = false;
            controller.enqueue(encoder.encode(`\uFEFF${unparse([columns])}`));
            return;
          }
          const c = cursor;
          const rows = await db
            .select({ log: activityLogs, name: users.name, email: users.email })
            .from(activityLogs)
            .leftJoin(users, eq(users.id, activityLogs.actorUserId))
            .where(
              and(
                eq(activityLogs.tenantId, tenantId),
                c ? or(lt(activityLogs.createdAt, c.createdAt), and(eq(activityLogs.createdAt, c.createdAt), lt(activityLogs.id, c.id))) : undefined,
              ),
            )
            .orderBy(desc(activityLogs.createdAt), desc(activityLogs.id))
            .limit(PAGE);
          if (rows.length === 0) {
            controller.close();
            return;
          }
          const last = rows[rows.length - 1]!.log;
          cursor = { createdAt: last.createdAt, id: last.id };
          controller.enqueue(
            encoder.encode(
              unparse(
                rows.map(({ log, name, email }) => [
                  csvTime(log.createdAt),
                  name ?? '',
                  email ?? '',
                  log.action,
                  log.targetType ?? '',
                  log.targetId ?? '',
                  log.ipAddress ?? '',
                  log.userAgent ?? '',
                  log.details === null ? '' : JSON.stringify(log.details),
                ]),
              ),
            ),
          );
          if (rows.length < PAGE) controller.close();
        } catch (e) {
          controller.error(e);
        }
      },
    },
    { highWaterMark: 0 },
  );
}
