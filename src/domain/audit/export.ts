// GET admin/activity-logs/export-csv (spec 02 section 7): the tenant's audit log as CSV, streamed
// page by page (keyset over the tenant/created_at index) so a million rows never sit in memory.
// UTF-8 with a byte order mark; RFC 4180 quoting and formula-injection escaping by papaparse.
import Papa from 'papaparse';
import { sql } from 'drizzle-orm';
import { SERVER_TIME_ZONE } from '../../shared/dates';
import type { TenantScope } from '../tenants/scope';

const PAGE = 2000;

interface RawRow {
  id: number;
  created_at: number;
  name: string | null;
  email: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  details: string | null;
}
/**
 * Cells a spreadsheet could run as a formula start with = + - @, a tab or a carriage return, or
 * their full-width forms (which Excel in Japanese locales also accepts); papaparse prefixes them
 * with an apostrophe (OWASP "CSV injection").
 */
export const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * Times are written in the product's zone, Asia/Tokyo (SERVER_TIME_ZONE), which has had a fixed
 * UTC+9 offset without daylight saving since 1951: plain arithmetic, instead of an Intl call per
 * cell of a million-row export.
 */
const TOKYO_OFFSET_MS = 9 * 3_600_000;
const _zone: typeof SERVER_TIME_ZONE = 'Asia/Tokyo';

/** yyyy-MM-dd HH:mm:ss in the product's time zone. */
export function csvTime(ms: number): string {
  const iso = new Date(ms + TOKYO_OFFSET_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** The screen's title (in the reader's language) + yyyyMMddHHmmss + .csv */
export function exportFilename(title: string, now: number): string {
  return `${title}${csvTime(now).replace(/[- :]/g, '')}.csv`;
}

/** The CSV's columns, in order (the header row names them in the reader's language). */
export const AUDIT_CSV_COLUMNS = ['time', 'actor', 'actorEmail', 'action', 'targetType', 'targetId', 'ip', 'userAgent', 'details'] as const;

const encoder = new TextEncoder();
const unparse = (rows: string[][]) => Papa.unparse(rows, { newline: '\r\n', escapeFormulae: FORMULA_START }) + '\r\n';

/** `columns`: the header row, one title for each of AUDIT_CSV_COLUMNS. */
export function auditCsvStream(scope: TenantScope, columns: string[]): ReadableStream<Uint8Array> {
  const { db } = scope;
  let cursor: { createdAt: number; id: number } | null = null;
  let first = true;
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
          // Raw rows (details stays the stored JSON text): no per-row object mapping or re-encoding.
          const rows = await db.all<RawRow>(sql`SELECT a.id, a.created_at, a.actor_name AS name, a.actor_email AS email, a.action, a.target_type, a.target_id,
              a.ip_address, a.user_agent, a.details
            FROM activity_logs a
            WHERE a.tenant_id = ${scope.id} ${c ? sql`AND (a.created_at < ${c.createdAt} OR (a.created_at = ${c.createdAt} AND a.id < ${c.id}))` : sql``}
            ORDER BY a.created_at DESC, a.id DESC LIMIT ${PAGE}`);
          if (rows.length === 0) {
            controller.close();
            return;
          }
          const last = rows[rows.length - 1]!;
          cursor = { createdAt: Number(last.created_at), id: Number(last.id) };
          controller.enqueue(
            encoder.encode(
              unparse(
                rows.map((r) => [
                  csvTime(Number(r.created_at)),
                  r.name ?? '',
                  r.email ?? '',
                  r.action,
                  r.target_type ?? '',
                  r.target_id ?? '',
                  r.ip_address ?? '',
                  r.user_agent ?? '',
                  r.details ?? '',
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
