// CSV import of users (spec 02 "Edit-by-import dialog", sections 5, 8, 9): the sample file. The
// import itself is a streamed job (csv.ts, upload.ts, staging.ts, switch.ts; decision 0030).
import Papa from 'papaparse';
import { sql } from 'drizzle-orm';
import type { Lang } from '../../../shared/i18n';
import { IMPORT_HEADERS, IMPORT_READING_HEADER, IMPORT_TRUE, MANAGED_APPS, type ManagedApp } from '../../../shared/people/schemas';
import type { TenantScope } from '../../tenants/scope';

export interface SampleTenant {
  /** The tenant's department names, first ones used in the examples. */
  departments: string[];
  /** The apps the tenant has contracted. */
  apps: ManagedApp[];
}

/**
 * The sample file: header row in the caller's language (with the optional reading column last,
 * decision 0045) and two example rows built from the tenant's own departments and apps, so the
 * sample uploaded unchanged imports (issue 27).
 * Without a tenant (or with neither app) the examples name no department and the card app.
 */
export function sampleCsv(lang: Lang, tenant: SampleTenant = { departments: [], apps: ['meishi'] }): string {
  const flag = (on: boolean) => (on ? IMPORT_TRUE : '0');
  const meishi = tenant.apps.includes('meishi') || !tenant.apps.includes('scheduler');
  const scheduler = tenant.apps.includes('scheduler');
  const [first = '', second = ''] = tenant.departments;
  const names = lang === 'ja' ? ['山田 太郎', '佐藤 花子'] : ['Taro Yamada', 'Hanako Sato'];
  const readings = lang === 'ja' ? ['ヤマダ タロウ', 'サトウ ハナコ'] : ['', ''];
  const example = [
    [names[0]!, 'taro.yamada@example.com', first, second && second !== first ? second : '', flag(meishi), flag(scheduler), '0', readings[0]!],
    [names[1]!, 'hanako.sato@example.com', '', '', flag(meishi), flag(scheduler), '1', readings[1]!],
  ];
  return Papa.unparse([[...IMPORT_HEADERS[lang], IMPORT_READING_HEADER[lang]], ...example], { newline: '\r\n' }) + '\r\n';
}

/** The tenant's departments and apps, for its sample: one statement (a screen's reads stay within two round trips). */
export async function sampleTenant(scope: TenantScope): Promise<SampleTenant> {
  const row = await scope.db.get<{ depts: string; apps: string }>(sql`SELECT
      (SELECT json_group_array(name) FROM (SELECT name FROM departments WHERE tenant_id = ${scope.id} ORDER BY id LIMIT 2)) AS depts,
      (SELECT json_group_array(app) FROM tenant_apps WHERE tenant_id = ${scope.id}) AS apps`);
  const apps = JSON.parse(row?.apps ?? '[]') as string[];
  return { departments: JSON.parse(row?.depts ?? '[]') as string[], apps: MANAGED_APPS.filter((m) => apps.includes(m)) };
}
