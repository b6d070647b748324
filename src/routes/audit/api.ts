// The audit log (admins only): the activity-log screen and its CSV export (decision 0021).
import { Hono } from 'hono';
import { AUDIT_CSV_COLUMNS, auditCsvStream, exportFilename } from '../../domain/audit/export';
import { audit } from '../../domain/audit/log';
import type { AppEnv, AuthedEnv } from '../http/env';
import { requireAccess } from '../middleware/guards';

export const auditApi = new Hono<AppEnv>();

type Admin = { var: AuthedEnv['Variables'] };
/** The admin's tenant (the guard guarantees a host tenant with an admin membership). */
const tenantOf = (c: Admin) => c.var.hostTenant!;

auditApi.get('/admin/activity-logs/export-csv', requireAccess('admin'), async (c) => {
  const { deps } = c.var;
  const tenant = tenantOf(c);
  const now = deps.clock.now();
  const t = c.get('t');
  const filename = exportFilename(t('titles.activity-logs'), now);
  await audit(deps.db, { tenantId: tenant.id, actorUserId: c.get('user').id, action: 'activity_logs.exported', targetType: 'tenant', targetId: tenant.id, ipAddress: c.get('clientIp'), userAgent: c.req.header('user-agent') ?? null }, now);
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return c.body(auditCsvStream(deps, tenant.id, AUDIT_CSV_COLUMNS.map((k) => t(`people.auditCsv.columns.${k}`))), 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    // RFC 6266: an ASCII fallback and the UTF-8 name.
    'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
    'Cache-Control': 'no-store',
  });
});
