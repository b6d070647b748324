// CSV import of users (spec 02 section 7): multipart upload with its own 50 MB limit (the JSON API
// limit of src/app.ts does not apply to these two paths), the sample file and the import log.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError, ValidationError } from '../../domain/errors';
import { drainMailQueue } from '../../domain/people/mail-queue';
import { importUsers, listImportLogs, logFailedImport, sampleCsv, type ImportKind } from '../../domain/people/import';
import { CSV_TYPE_ERROR, IMPORT_MAX_BYTES, IMPORT_SAMPLE_FILENAME } from '../../shared/people-schemas';
import type { AppEnv, AuthedEnv } from '../env';
import { requireAccess } from '../middleware/guards';
import { inBackground, peopleActor } from './admin-people';

export const adminImportApi = new Hono<AppEnv>();

/** Paths that take uploads; src/app.ts exempts them from the JSON body limit. */
export const UPLOAD_PATHS = ['/admin/users/import', '/admin/users/import/update'];

const people = requireAccess('admin-or-manager');
// The file plus the multipart envelope (boundaries, part headers).
const uploadLimit = bodyLimit({ maxSize: IMPORT_MAX_BYTES + 64 * 1024, onError: (c) => c.json({ message: 'file-too-large' }, 413) });

const CSV_TYPES = new Set(['text/csv', 'text/plain', 'application/csv', 'text/x-csv', 'application/vnd.ms-excel', 'application/octet-stream', '']);

async function readCsvFile(c: Context): Promise<{ name: string; bytes: Uint8Array }> {
  let form: Record<string, unknown>;
  try {
    form = await c.req.parseBody();
  } catch {
    throw new ValidationError({ csvFile: ['The csv file field is required.'] });
  }
  const file = form.csvFile;
  if (!(file instanceof File)) throw new ValidationError({ csvFile: ['The csv file field is required.'] });
  const ext = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase();
  if ((ext !== 'csv' && ext !== 'txt') || !CSV_TYPES.has(file.type.split(';')[0]!.trim().toLowerCase())) {
    throw new ValidationError({ csvFile: [CSV_TYPE_ERROR] });
  }
  if (file.size > IMPORT_MAX_BYTES) throw new AppError('file-too-large', 413);
  return { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
}

async function upload(c: Context<AuthedEnv>, kind: ImportKind) {
  const { deps } = c.var;
  const tenant = c.var.hostTenant!;
  const actor = peopleActor(c);
  const file = await readCsvFile(c);
  let count: number;
  try {
    count = await importUsers(deps, tenant, kind, file, c.var.lang, actor);
  } catch (e) {
    // Refused files appear in the import log too (applied ones are logged by the import itself).
    if (e instanceof AppError && e.code !== 'quota_finished') await logFailedImport(deps, tenant, kind, file.name, actor, e.code);
    throw e;
  }
  // Invitations leave through the throttled queue; the first batch right after the response.
  if (kind === 'add') inBackground(c, drainMailQueue(deps));
  return c.json({ message: 'success', count });
}

adminImportApi.post('/admin/users/import', people, uploadLimit, (c) => upload(c, 'add'));
adminImportApi.post('/admin/users/import/update', people, uploadLimit, (c) => upload(c, 'update'));

adminImportApi.get('/admin/users/import', people, (c) => {
  // A BOM so spreadsheet programs open the UTF-8 sample with the right characters.
  return c.body(`\uFEFF${sampleCsv(c.var.lang)}`, 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${IMPORT_SAMPLE_FILENAME}"`,
    'Cache-Control': 'no-store',
  });
});

adminImportApi.get('/admin/users/import/update/logs', people, async (c) => c.json(await listImportLogs(c.var.deps, c.var.hostTenant!.id)));
