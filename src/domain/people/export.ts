// GET admin/users/export (decision 0045): the tenant's active members as CSV in the import file's
// own columns (header in the reader's language, the reading column last), so an admin exports,
// edits in a spreadsheet and brings the file back with "edit by import". Streamed page by page
// (keyset over tenant_users.id) like the audit-log export; UTF-8 with a byte order mark (Excel);
// formula-injection escaping by papaparse. Pending invitations and members being deleted are left
// out: edit-by-import refuses them (their names are not the tenant's).
import Papa from 'papaparse';
import { sql } from 'drizzle-orm';
import type { Lang } from '../../shared/i18n';
import { IMPORT_HEADERS, IMPORT_LIST_SEPARATOR, IMPORT_READING_HEADER, IMPORT_TRUE } from '../../shared/people/schemas';
import { FORMULA_START } from '../audit/export';
import type { TenantScope } from '../tenants/scope';

const PAGE = 2000;
const encoder = new TextEncoder();
const unparse = (rows: string[][]) => Papa.unparse(rows, { newline: '\r\n', escapeFormulae: FORMULA_START }) + '\r\n';

interface RawRow {
  id: number;
  name: string;
  email: string;
  department: string | null;
  extra: string | null;
  meishi: number;
  scheduler: number;
  is_admin: number;
  reading: string | null;
}

export function usersCsvStream(scope: TenantScope, lang: Lang): ReadableStream<Uint8Array> {
  const { db } = scope;
  let after = 0;
  let first = true;
  const flag = (v: number) => (v ? IMPORT_TRUE : '0');
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (first) {
            first = false;
            controller.enqueue(encoder.encode(`\uFEFF${unparse([[...IMPORT_HEADERS[lang], IMPORT_READING_HEADER[lang]]])}`));
            return;
          }
          const rows = await db.all<RawRow>(sql`SELECT tu.id AS id, coalesce(tu.display_name, u.name) AS name, u.email AS email, d.name AS department,
              (SELECT group_concat(x.name, ${IMPORT_LIST_SEPARATOR}) FROM (SELECT ad_d.name AS name FROM additional_departments ad
                CROSS JOIN departments ad_d ON ad_d.id = ad.department_id WHERE ad.tenant_user_id = tu.id AND ad.tenant_id = ${scope.id} ORDER BY ad_d.name) x) AS extra,
              tu.meishi_access_granted_at IS NOT NULL AS meishi, tu.scheduler_access_granted_at IS NOT NULL AS scheduler, tu.is_admin AS is_admin, tu.name_reading AS reading
            FROM tenant_users tu CROSS JOIN users u ON u.id = tu.user_id LEFT JOIN departments d ON d.id = tu.department_id AND d.tenant_id = ${scope.id}
            WHERE tu.tenant_id = ${scope.id} AND tu.id > ${after} AND tu.deactivated_at IS NULL AND tu.invitation_pending = 0 AND tu.operation_status IS NULL
            ORDER BY tu.id LIMIT ${PAGE}`);
          if (rows.length === 0) {
            controller.close();
            return;
          }
          after = Number(rows[rows.length - 1]!.id);
          controller.enqueue(
            encoder.encode(
              unparse(
                rows.map((r) => [r.name, r.email, r.department ?? '', r.extra ?? '', flag(Number(r.meishi)), flag(Number(r.scheduler)), flag(Number(r.is_admin)), r.reading ?? '']),
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
