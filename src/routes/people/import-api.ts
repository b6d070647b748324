// CSV import of users (spec 02 section 7): multipart upload with its own 50 MB limit (the JSON API
// limit of src/app.ts does not apply to these two paths), the sample file, the import log, and
// the progress of an import that runs as a job (decision 0030). The upload is read as a stream
// (multipart.ts) and stored piece by piece; a small file is then imported within the request and
// answered as before, a large one answers 202 with the job to follow.
import { Hono } from 'hono';
import { AppError, ValidationError } from '../../domain/errors';
import { isErrorCode } from '../../shared/error-codes';
import { drainMailQueue } from '../../domain/people/mail-queue';
import { sampleCsv, sampleTenant } from '../../domain/people/import/sample';
import { importLogsRead } from '../../domain/people/lists';
import { readOne } from '../../db/client';
import { getImportJob, progressOf, type ImportKind } from '../../domain/people/import/job';
import { continueImportJob, runInline } from '../../domain/people/import/runner';
import { receiveUpload } from '../../domain/people/import/upload';
import { importDiff, startPreviewedRun } from '../../domain/people/import/preview';
import { CSV_TYPE_ERROR, IMPORT_MAX_BYTES, IMPORT_SAMPLE_FILENAME, importJobParamSchema, type ImportAccepted } from '../../shared/people/schemas';
import type { AppEnv, TenantCtx } from '../http/env';
import { requireAccess } from '../middleware/guards';
import { inBackground } from '../http/background';
import { actorOf } from '../http/actor';
import { MalformedMultipart, openMultipartFile } from './multipart';
import { errorAnswer } from '../http/errors';

export const adminImportApi = new Hono<AppEnv>();

/** Paths that take uploads; src/app.ts exempts them from the JSON body limit. */
export const UPLOAD_PATHS = ['/admin/users/import', '/admin/users/import/update'];

const people = requireAccess('admin-or-manager');
/** The file plus the multipart envelope (boundaries, part headers). */
const BODY_LIMIT = IMPORT_MAX_BYTES + 64 * 1024;

const CSV_TYPES = new Set(['text/csv', 'text/plain', 'application/csv', 'text/x-csv', 'application/vnd.ms-excel', 'application/octet-stream', '']);
const required = () => new ValidationError({ csvFile: ['The csv file field is required.'] });

async function upload(c: TenantCtx, kind: ImportKind) {
  const deps = c.get('deps');
  // `?preview=1`: a dry run (decision 0043); the answer is its diff, the run a second call.
  const dryRun = c.req.query('preview') === '1';
  const scope = c.get('tenantScope');
  const declared = Number(c.req.header('content-length'));
  if (declared > BODY_LIMIT) return errorAnswer(c, 'file-too-large');
  const body = c.req.raw.body;
  if (!body) throw required();
  let file;
  try {
    file = await openMultipartFile(body, c.req.header('content-type') ?? '', 'csvFile', BODY_LIMIT);
  } catch (e) {
    if (e instanceof MalformedMultipart) throw required();
    throw e;
  }
  if (!file) throw required();
  const ext = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase();
  if ((ext !== 'csv' && ext !== 'txt') || !CSV_TYPES.has(file.type.split(';')[0]!.trim().toLowerCase())) {
    file.cancel();
    throw new ValidationError({ csvFile: [CSV_TYPE_ERROR] });
  }
  let job;
  try {
    // (A refusal before the file is read stops reading the body.)
    job = await receiveUpload(deps, scope, kind, file, c.get('lang'), actorOf(c), { chunkBytes: deps.config.IMPORT_CHUNK_BYTES, maxBytes: IMPORT_MAX_BYTES }, dryRun);
  } catch (e) {
    if (e instanceof MalformedMultipart) throw new AppError('upload-failed');
    if (e instanceof AppError && e.code === 'imports-in-progress') file.cancel();
    throw e;
  }
  if (job.bytes <= deps.config.IMPORT_INLINE_BYTES) {
    const done = await runInline(deps, job.id);
    if (done.status === 'previewed') return c.json({ message: 'previewed', ...(await importDiff(deps, scope, c.get('user').id, job.id)) });
    if (done.status === 'success') {
      // Invitations leave through the throttled queue; the first batch right after the response.
      if (kind === 'add') inBackground(c, drainMailQueue(deps));
      return c.json({ message: 'success', count: done.importedRows ?? 0 });
    }
    if (done.status === 'failed') throw new AppError(isErrorCode(done.errorCode) ? done.errorCode : 'server-error', done.errorDetails ?? {});
    // Still running (a failed step waits for its retry): followed like a large file.
  }
  continueImportJob(deps, job.id, (work) => inBackground(c, work));
  const progress = progressOf(job);
  const answer: ImportAccepted = { message: 'processing', jobId: job.id, ...progress };
  c.header('Location', `${deps.config.BASE_PATH}/api/admin/users/import/${job.id}`);
  return c.json(answer, 202);
}

adminImportApi.post('/admin/users/import', people, (c) => upload(c, 'add'));
adminImportApi.post('/admin/users/import/update', people, (c) => upload(c, 'update'));

adminImportApi.get('/admin/users/import', people, async (c) => {
  // A BOM so spreadsheet programs open the UTF-8 sample with the right characters; the examples
  // use the tenant's own departments and apps, so the sample uploaded unchanged imports (issue 27).
  return c.body(`\uFEFF${sampleCsv(c.get('lang'), await sampleTenant(c.get('tenantScope')))}`, 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${IMPORT_SAMPLE_FILENAME}"`,
    'Cache-Control': 'no-store',
  });
});

adminImportApi.get('/admin/users/import/update/logs', people, async (c) => c.json(await readOne(c.get('tenantScope').db, importLogsRead(c.get('tenantScope')))));

// A dry run's diff, and its run (decision 0043): the member who started it, on its tenant's host.
adminImportApi.get('/admin/users/import/:jobId{[0-9]+}/preview', people, async (c) => {
  const parsed = importJobParamSchema.safeParse({ jobId: c.req.param('jobId') });
  if (!parsed.success) throw new AppError('not-found');
  return c.json(await importDiff(c.get('deps'), c.get('tenantScope'), c.get('user').id, parsed.data.jobId), 200, { 'Cache-Control': 'no-store' });
});

adminImportApi.post('/admin/users/import/:jobId{[0-9]+}/run', people, async (c) => {
  const parsed = importJobParamSchema.safeParse({ jobId: c.req.param('jobId') });
  if (!parsed.success) throw new AppError('not-found');
  const deps = c.get('deps');
  const job = await startPreviewedRun(deps, c.get('tenantScope'), c.get('user').id, parsed.data.jobId);
  if (job.bytes <= deps.config.IMPORT_INLINE_BYTES) {
    const done = await runInline(deps, job.id);
    if (done.status === 'success') {
      if (job.kind === 'add') inBackground(c, drainMailQueue(deps));
      return c.json({ message: 'success', count: done.importedRows ?? 0 });
    }
    if (done.status === 'failed') throw new AppError(isErrorCode(done.errorCode) ? done.errorCode : 'server-error', done.errorDetails ?? {});
  }
  continueImportJob(deps, job.id, (work) => inBackground(c, work));
  const answer: ImportAccepted = { message: 'processing', jobId: job.id, ...progressOf(job) };
  c.header('Location', `${deps.config.BASE_PATH}/api/admin/users/import/${job.id}`);
  return c.json(answer, 202);
});

// The progress of a job: the member who started it, on its tenant's host; anyone else 404.
adminImportApi.get('/admin/users/import/:jobId{[0-9]+}', people, async (c) => {
  const parsed = importJobParamSchema.safeParse({ jobId: c.req.param('jobId') });
  if (!parsed.success) throw new AppError('not-found');
  const progress = await getImportJob(c.get('deps'), c.get('tenantScope'), c.get('user').id, parsed.data.jobId);
  return c.json(progress, 200, { 'Cache-Control': 'no-store' });
});
