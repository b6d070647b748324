// CSV import of users (spec 02 "Edit-by-import dialog", sections 5, 8, 9): the import log and the
// sample file. The import itself is a streamed job: import-csv.ts (bytes, decoding, parsing) and
// import-jobs.ts (upload, staging, the all-or-nothing switch), decision 0030.
import Papa from 'papaparse';
import { desc, eq } from 'drizzle-orm';
import type { Deps } from '../../../deps';
import { importLogs, users } from '../../../db/schema';
import type { Lang } from '../../../shared/i18n';
import { IMPORT_HEADERS, type ImportLog } from '../../../shared/people/schemas';
import { iso } from '../members';
import type { TenantScope } from '../../tenants/scope';

/** GET admin/users/import/update/logs: newest first. */
export async function listImportLogs(deps: Deps, scope: TenantScope, limit = 50): Promise<ImportLog[]> {
  const rows = await deps.db
    .select({ log: importLogs, name: users.name })
    .from(importLogs)
    .leftJoin(users, eq(users.id, importLogs.userId))
    .where(scope.own(importLogs))
    .orderBy(desc(importLogs.startTime), desc(importLogs.id))
    .limit(limit);
  return rows.map(({ log, name }) => ({
    id: log.id,
    filename: log.filename,
    kind: log.kind,
    start_time: iso(log.startTime)!,
    user: name === null ? null : { name },
    status: log.status,
    number_of_users_updated: log.numberOfUsersUpdated,
  }));
}

/** The sample file: header row in the caller's language and two example rows. */
export function sampleCsv(lang: Lang): string {
  const example =
    lang === 'ja'
      ? [['山田 太郎', 'taro.yamada@example.com', '営業部', '開発部|総務部', '1', '0', '0'], ['佐藤 花子', 'hanako.sato@example.com', '', '', '1', '1', '1']]
      : [['Taro Yamada', 'taro.yamada@example.com', 'Sales', 'Development|General affairs', '1', '0', '0'], ['Hanako Sato', 'hanako.sato@example.com', '', '', '1', '1', '1']];
  return Papa.unparse([[...IMPORT_HEADERS[lang]], ...example], { newline: '\r\n' }) + '\r\n';
}

