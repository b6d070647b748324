// Phase 1 of a CSV import (decision 0030): the file's bytes are cut into pieces ending after a
// newline byte and stored in `import_chunks` as they arrive; the encoding is decided at the end.
import { eq, inArray } from 'drizzle-orm';
import type { Deps } from '../../../deps';
import { importChunks, importJobs, importLogs } from '../../../db/schema';
import type { Lang } from '../../../shared/i18n';
import { AppError } from '../../errors';
import { bytesToLatin1, PieceCutter, UploadInspector } from './csv';
import type { PeopleActor } from '../users';
import { cleanupJob, failJob, pause, type ImportJob, type ImportKind, MAX_RUNNING_IMPORTS, RUNNING, UPLOAD_LEASE_MS } from './job';
import type { TenantScope } from '../../tenants/scope';

export interface UploadLimits {
  /** Target piece size (IMPORT_CHUNK_BYTES). */
  chunkBytes: number;
  /** The file size limit (spec 02 section 9: 50 MB). */
  maxBytes: number;
}

/**
 * Creates the job (and its import-log row) and stores the file piece by piece as `bytes` yields
 * it; the file is never whole in memory. Refusals that the bytes alone decide (too large,
 * UTF-16, NUL bytes, a BOM on bytes that are not UTF-8, a line longer than a piece) fail the job
 * and are thrown. Returns the job, queued.
 */
export async function receiveUpload(
  deps: Deps,
  scope: TenantScope,
  kind: ImportKind,
  file: { name: string; bytes: AsyncIterable<Uint8Array> },
  lang: Lang,
  actor: PeopleActor,
  limits: UploadLimits,
  /** A dry run: checked and held as a preview until it is run (decision 0043). */
  dryRun = false,
): Promise<ImportJob> {
  const { db, clock } = deps;
  const running = await db.select({ id: importJobs.id }).from(importJobs).where(scope.own(importJobs, inArray(importJobs.status, RUNNING))).limit(MAX_RUNNING_IMPORTS);
  if (running.length >= MAX_RUNNING_IMPORTS) throw new AppError('imports-in-progress');
  const now = clock.now();
  const filename = file.name.slice(0, 255);
  const log = await scope.insert(importLogs, { userId: actor.userId, kind, filename, status: 'processing', startTime: now }).returning({ id: importLogs.id }).get();
  const job = await db
    .insert(importJobs)
    .values({
      tenantId: scope.id,
      userId: actor.userId,
      importLogId: log!.id,
      kind,
      filename,
      lang,
      status: 'uploading',
      dryRun,
      actorIp: actor.ip,
      actorUserAgent: actor.userAgent?.slice(0, 512) ?? null,
      lockedUntil: now + UPLOAD_LEASE_MS,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  const cutter = new PieceCutter(limits.chunkBytes, limits.chunkBytes * 2);
  const inspector = new UploadInspector();
  let seq = 0;
  const store = async (piece: Uint8Array) => {
    inspector.inspect(piece);
    // A NUL byte or UTF-16 is refused at once, without storing the rest.
    if (inspector.refused) throw new AppError('incorrect-encoding');
    const t = clock.now();
    await db.batch([
      db.insert(importChunks).values({ jobId: job!.id, seq: seq++, data: bytesToLatin1(piece) }),
      db.update(importJobs).set({ lockedUntil: t + UPLOAD_LEASE_MS, updatedAt: t, bytes: inspector.bytes, chunks: seq }).where(eq(importJobs.id, job!.id)),
    ]);
  };
  const iterator = file.bytes[Symbol.asyncIterator]();
  let size = 0;
  try {
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) {
      size += r.value.length;
      if (size > limits.maxBytes) throw new AppError('file-too-large');
      const { pieces, tooLong } = cutter.push(r.value);
      for (const p of pieces) {
        await store(p);
        // A body that arrives faster than it is stored (a fast network, or in-process) would
        // otherwise chain every piece in microtasks: let other requests in between pieces.
        await pause();
      }
      if (tooLong) throw new AppError('invalid-csv', { rows: [{ row: inspector.lines + 1, column: null, error: 'parse' }] });
    }
    const last = cutter.end();
    if (last) await store(last);
    const encoding = inspector.encoding();
    const t = clock.now();
    return (await db
      .update(importJobs)
      .set({ status: 'queued', encoding, bytes: inspector.bytes, chunks: seq, totalRows: inspector.dataLines, lockedUntil: null, updatedAt: t })
      .where(eq(importJobs.id, job!.id))
      .returning()
      .get())!;
  } catch (e) {
    let failure = e instanceof AppError ? e : new AppError('upload-failed');
    // A file refused for its content is still read to its end (nothing stored): the browser is
    // told once it has sent everything, and a file over the limit is told so rather than why
    // its first bytes were wrong.
    if (e instanceof AppError && e.code !== 'file-too-large') {
      try {
        for (let r = await iterator.next(); !r.done; r = await iterator.next()) {
          size += r.value.length;
          if (size > limits.maxBytes) {
            failure = new AppError('file-too-large');
            break;
          }
        }
      } catch {
        /* the body ended early: the first reason stands */
      }
    }
    await failJob(deps, scope, { ...job!, status: 'uploading' }, failure);
    await cleanupJob(deps, job!.id).catch(() => undefined); // else the sweep does it
    throw failure === e || !(e instanceof AppError) ? e : failure;
  }
}
