// The audit log (admins only): the activity-log screen and its CSV export (decision 0021).
import { Hono } from 'hono';
import { AUDIT_CSV_COLUMNS, auditCsvStream, exportFilename } from '../../domain/audit/export';
import { audit } from '../../domain/audit/log';
import type { AppEnv } from '../http/env';
import { requireAccess } from '../middleware/guards';

export const auditApi = new Hono<AppEnv>();


auditApi.get('/admin/activity-logs/export-csv', requireAccess('admin'), async (c) => {
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const now = deps.clock.now();
  const t = c.get('t');
  const filename = exportFilename(t('titles.activity-logs'), now);
  await audit(deps.db, { tenantId: scope.id, actorUserId: c.get('user').id, action: 'activity_logs.exported', targetType: 'tenant', targetId: scope.id, ipAddress: c.get('clientIp'), userAgent: c.req.header('user-agent') ?? null }, now);
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return c.body(auditCsvStream(scope, AUDIT_CSV_COLUMNS.map((k) => t(`people.auditCsv.columns.${k}`))), 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    // RFC 6266: an ASCII fallback and the UTF-8 name.
    'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
    'Cache-Control': 'no-store',
  });
});
