// CSV import (spec 02 "Edit-by-import dialog", sections 4, 5, 8 and 9): a drop zone with a file
// picker, the sample download, the 50 MB and file-type checks before sending, the upload with its
// progress percentage, every error message of section 8, and the dialog comparing the expected
// and the given header columns. Used by the add dialog's CSV tab (POST admin/users/import) and by
// the edit-by-import dialog (POST admin/users/import/update). Not an island itself.
// A file over 1 MiB runs as an import job (decision 0030): the upload answers 202 and the job's
// progress (GET admin/users/import/{jobId}) shows as rows read of the file's rows, then its outcome.
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { api } from '../../shared/api';
import type { T } from '../../shared/i18n';
import type { ImportAccepted, ImportDiff, ImportDiffField, ImportJobProgress } from '../../shared/people/schemas';
import { checkCsvFile, compareHeaders, SAMPLE_CSV_NAME } from '../../shared/people/list-state';
import { BTN_PRIMARY, BTN_SECONDARY, InlineNotice } from '../kit/admin-parts';
import Dialog from '../kit/Dialog';
import { LINK, uploadWithProgress } from './people-parts';
import { WhyHint, whyDisabled } from '../kit/why-hint';

export type ImportMode = 'add' | 'update';

export interface HeaderMismatch {
  expected: string[];
  given: string[];
}

type Outcome = { kind: 'error' | 'success'; text: string; rows?: string[] } | null;

/** How often a running job's progress is read. */
const POLL_MS = 700;

/** A running job's progress: a progress bar of rows read, or the switch that applies them. */
function JobProgress({ t, job }: { t: T; job: ImportJobProgress }) {
  const total = Math.max(job.total_rows, job.processed_rows);
  const applying = job.status === 'switching' || job.status === 'success';
  const waiting = job.status === 'uploading' || job.status === 'queued';
  const now = applying ? total : job.processed_rows;
  const text = applying
    ? t('people.import.job.applying')
    : waiting
      ? t('people.import.job.waiting')
      : t('people.import.job.checking', { processed: job.processed_rows.toLocaleString(), total: total.toLocaleString() });
  const percent = total > 0 ? Math.round((now / total) * 100) : 0;
  return (
    <div className="flex flex-col gap-1" data-testid="import-job">
      <div
        role="progressbar"
        aria-label={t('people.import.job.progressLabel')}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={now}
        aria-valuetext={t('people.import.job.valueText', { processed: now.toLocaleString(), total: total.toLocaleString() })}
        className="h-3 overflow-hidden rounded bg-slate-200"
        data-testid="import-job-progress"
      >
        <div className="h-full bg-blue-800 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <span className="text-sm text-slate-800" data-testid="import-job-text">
        {text}
      </span>
    </div>
  );
}

/** The lines of an invalid-csv answer, as "Line 3 (email): ..." (at most 20 shown). */
/** The 202 answer of a file that runs as a job (the server's ImportAccepted). */
const isAccepted = (data: Record<string, unknown>): data is Record<string, unknown> & ImportAccepted => data.message === 'processing' && typeof data.jobId === 'number';

/** A dry run's answer (the server's ImportDiff with message 'previewed'). */
const isDiff = (data: Record<string, unknown>): data is Record<string, unknown> & ImportDiff => data.message === 'previewed' && typeof data.jobId === 'number' && typeof data.counts === 'object';

function rowErrors(t: T, data: Record<string, unknown>): string[] {
  if (!Array.isArray(data.rows)) return [];
  return (data.rows as { row?: number; column?: string | null; error?: string; value?: string }[]).slice(0, 20).map((r) => {
    // The bad cell quoted, under the header the person sees (issue 27: メールアドレス, not email).
    const text = t(`people.import.rowErrors.${r.error ?? 'parse'}`);
    const error = r.value ? t('people.import.rowErrorValue', { error: text, value: r.value }) : text;
    return r.column ? t('people.import.rowErrorColumn', { row: r.row, column: t(`people.import.columns.${r.column}`), error }) : t('people.import.rowError', { row: r.row, error });
  });
}

/** The message of section 8 for a failed import answer. */
export function importErrorKey(status: number, data: Record<string, unknown>, mode: ImportMode): string {
  const message = typeof data.message === 'string' ? data.message : '';
  const error = typeof data.error === 'string' ? data.error : '';
  const code = error || message;
  if (status === 413 || code === 'file-too-large' || code === 'file_too_large') return 'people.import.tooLarge';
  if (code === 'incorrect-encoding') return 'people.import.incorrectEncoding';
  if (code === 'imports-in-progress') return 'people.import.busy';
  if (code === 'quota_finished') return 'people.import.quotaFinished';
  if (code === 'no_data' && mode === 'update') return 'people.import.noData';
  if (code === 'no_data') return 'people.import.invalidCsv';
  if (code === 'wrong-file-type' || code === 'wrong_file_type') return 'people.import.wrongType';
  if (message.toLowerCase().includes('invalid') || code === 'invalid-csv' || code === 'invalid_csv') {
    const errors = (data.errors ?? {}) as Record<string, unknown>;
    const csvErrors = Array.isArray(errors.csvFile) ? errors.csvFile.join(' ') : String(errors.csvFile ?? '');
    return /\b(csv|txt)\b/i.test(csvErrors) || code === 'wrong-file-type' ? 'people.import.wrongType' : 'people.import.invalidCsv';
  }
  return 'people.import.someError';
}

export function CsvImport({
  t,
  basePath,
  mode,
  onImported,
}: {
  t: T;
  basePath: string;
  mode: ImportMode;
  /** After a successful import: the screen reloads users, departments and apps (section 4). */
  onImported: (data: Record<string, unknown>) => void;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [over, setOver] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [mismatch, setMismatch] = useState<HeaderMismatch | null>(null);
  const [mismatchOpen, setMismatchOpen] = useState(false);
  const [job, setJob] = useState<ImportJobProgress | null>(null);
  const [diff, setDiff] = useState<ImportDiff | null>(null);
  const busy = progress !== null || job !== null;
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );

  const choose = (f: File | null) => {
    setOutcome(null);
    if (!f) return setFile(null);
    const problem = checkCsvFile(f);
    if (problem) {
      setFile(null);
      if (inputRef.current) inputRef.current.value = '';
      setOutcome({ kind: 'error', text: t(problem === 'too-large' ? 'people.import.tooLarge' : 'people.import.wrongType') });
      return;
    }
    setFile(f);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (busy) return;
    choose(e.dataTransfer.files[0] ?? null);
  };

  /** `preview`: a dry run (decision 0043): the answer is the diff, shown until the admin runs it. */
  const upload = async (preview = false) => {
    if (!file || busy) return;
    setOutcome(null);
    setMismatch(null);
    setDiff(null);
    setProgress(0);
    const form = new FormData();
    form.append('csvFile', file, file.name);
    const path = mode === 'add' ? 'admin/users/import' : 'admin/users/import/update';
    let r = await uploadWithProgress(`${basePath}/api/${path}${preview ? '?preview=1' : ''}`, form, setProgress);
    setProgress(null);
    if (r.status === 202 && isAccepted(r.data)) r = await follow(r.data);
    answered(r);
  };

  /** Runs the previewed job: exactly its staged rows, or a refusal if members changed since. */
  const run = async () => {
    if (!diff || busy) return;
    const jobId = diff.jobId;
    setDiff(null);
    setOutcome(null);
    const res = await api(basePath, 'POST', `admin/users/import/${jobId}/run`);
    let r: { status: number; data: Record<string, unknown> } = { status: res.status, data: res.data as Record<string, unknown> };
    if (r.status === 202 && isAccepted(r.data)) r = await follow(r.data);
    answered(r);
  };

  const answered = (r: { status: number; data: Record<string, unknown> }) => {
    if (r.status === 200 && isDiff(r.data)) {
      setDiff(r.data);
      return;
    }
    if (r.status >= 200 && r.status < 300) {
      setFile(null);
      if (inputRef.current) inputRef.current.value = '';
      const count = typeof r.data.count === 'number' ? r.data.count : typeof r.data.number_of_users_updated === 'number' ? r.data.number_of_users_updated : null;
      setOutcome({ kind: 'success', text: count === null ? t(`people.import.success.${mode}`) : t(`people.import.successCount.${mode}`, { count }) });
      onImported(r.data);
      return;
    }
    const code = typeof r.data.error === 'string' ? r.data.error : r.data.message;
    if (code === 'unexpected_format') {
      const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
      setMismatch({ expected: list(r.data.expected_format), given: list(r.data.given_format) });
      setMismatchOpen(true);
      setOutcome({ kind: 'error', text: t('people.import.unexpectedFormat') });
      return;
    }
    if (r.data.message === 'import-target-changed' || r.data.message === 'import-not-previewed') {
      setOutcome({ kind: 'error', text: t(r.data.message === 'import-target-changed' ? 'people.import.targetChanged' : 'people.import.notPreviewed') });
      return;
    }
    setOutcome({ kind: 'error', text: t(importErrorKey(r.status, r.data, mode)), rows: rowErrors(t, r.data) });
  };

  /**
   * Reads the job until it ends; answers as the import call would have: 200 with the count, or
   * the error's status and body. A read that fails is tried again a few times.
   */
  const follow = async (accepted: ImportAccepted): Promise<{ status: number; data: Record<string, unknown> }> => {
    setJob(accepted);
    let failures = 0;
    try {
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        if (!alive.current) return { status: 0, data: {} };
        const res = await api<ImportJobProgress>(basePath, 'GET', `admin/users/import/${accepted.jobId}`).catch(() => null);
        if (!res?.ok) {
          if (++failures >= 5) return { status: res?.status ?? 0, data: {} };
          continue;
        }
        failures = 0;
        const current = res.data;
        setJob(current);
        if (current.status === 'success') return { status: 200, data: { message: 'success', count: current.count } };
        if (current.status === 'previewed') {
          const d = await api<ImportDiff>(basePath, 'GET', `admin/users/import/${accepted.jobId}/preview`);
          return { status: d.status, data: { ...(d.data as Record<string, unknown>), message: d.ok ? 'previewed' : d.data.message } };
        }
        if (current.status === 'failed') {
          const { status, ...body } = current.error ?? { status: 500, message: 'server-error' };
          return { status, data: body };
        }
      }
    } finally {
      setJob(null);
    }
  };

  const inputId = `${id}-file`;
  return (
    <div className="flex flex-col gap-3" data-testid={`csv-import-${mode}`}>
      <p className="m-0 text-sm text-slate-800">{t(`people.import.intro.${mode}`)}</p>
      <p className="m-0 text-sm">
        <a className={LINK} href={`${basePath}/api/admin/users/import`} download={SAMPLE_CSV_NAME} data-testid="sample-download">
          {t('people.import.sample')}
        </a>
      </p>
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={`rounded-lg border-2 border-dashed p-6 text-center ${over ? 'border-blue-800 bg-blue-50' : 'border-slate-500 bg-slate-50'}`}
        data-testid="drop-zone"
      >
        <p className="m-0 mb-2 text-slate-800">{t('people.import.drop')}</p>
        <label htmlFor={inputId} className="font-medium">
          {t('people.import.chooseFile')}
        </label>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          disabled={busy}
          aria-describedby={`${id}-rules`}
          onChange={(e) => choose(e.target.files?.[0] ?? null)}
          className="mx-auto mt-2 block max-w-full text-sm"
        />
        <p id={`${id}-rules`} className="m-0 mt-2 text-xs text-slate-700">
          {t('people.import.rules')}
        </p>
      </div>
      {file && (
        <p className="m-0 text-sm" data-testid="chosen-file">
          {t('people.import.chosen', { name: file.name })}
        </p>
      )}
      <div aria-live="polite">
        {progress !== null && (
          <div className="flex items-center gap-3">
            <progress max={100} value={progress} aria-label={t('people.import.progressLabel')} className="h-3 flex-1" />
            <span data-testid="upload-progress">{t('people.import.progress', { percent: progress })}</span>
          </div>
        )}
      </div>
      {/* Outside the live region: the row count changes too often to be read out each time. */}
      {job && <JobProgress t={t} job={job} />}
      <InlineNotice kind={outcome?.kind === 'success' ? 'success' : 'error'} text={outcome?.text ?? null} testId="import-outcome" />
      {outcome?.rows && outcome.rows.length > 0 && (
        <ul className="m-0 -mt-2 list-disc pl-6 text-sm text-red-900" data-testid="import-row-errors">
          {outcome.rows.map((r, i) => (
            <li key={i}>{r}</li>
          ))}
        </ul>
      )}
      {diff && <ImportPreview t={t} diff={diff} onRun={() => void run()} onDiscard={() => setDiff(null)} />}
      <div className="flex flex-wrap gap-2">
        <button type="button" className={BTN_PRIMARY} {...whyDisabled(`${id}-why`, !file && t('people.import.chooseFirst'), busy)} onClick={() => void upload()}>
          {t(busy ? 'people.import.uploading' : 'people.import.upload')}
        </button>
        <button type="button" className={BTN_SECONDARY} {...whyDisabled(`${id}-why`, !file && t('people.import.chooseFirst'), busy)} onClick={() => void upload(true)}>
          {t('people.import.preview.button')}
        </button>
        {mismatch && (
          <button type="button" className={BTN_SECONDARY} onClick={() => setMismatchOpen(true)}>
            {t('people.import.showMismatch')}
          </button>
        )}
      </div>
      <WhyHint id={`${id}-why`} reason={!file && t('people.import.chooseFirst')} busy={busy} className="-mt-2" />
      <HeaderMismatchDialog t={t} mismatch={mismatchOpen ? mismatch : null} onClose={() => setMismatchOpen(false)} />
    </div>
  );
}

export function HeaderMismatchDialog({ t, mismatch, onClose }: { t: T; mismatch: HeaderMismatch | null; onClose: () => void }) {
  const rows = mismatch ? compareHeaders(mismatch.expected, mismatch.given) : [];
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog open={mismatch !== null} labelledBy="header-mismatch-title" describedBy="header-mismatch-text" onDismiss={onClose} initialFocus={closeRef} className="max-w-2xl" testId="header-mismatch">
      <h2 id="header-mismatch-title" className="m-0 text-lg font-semibold">
        {t('people.import.mismatchTitle')}
      </h2>
      <p id="header-mismatch-text" className="mb-3 mt-2">
        {t('people.import.mismatchText')}
      </p>
      <div className="max-h-96 overflow-auto">
        <table className="w-full border-collapse text-left text-sm">
          <thead className="bg-slate-100">
            <tr>
              <th scope="col" className="px-3 py-2">
                {t('people.import.column')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('people.import.expected')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('people.import.given')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} className={`border-t border-slate-200 ${r.mismatch ? 'bg-red-50 text-red-900' : ''}`} data-mismatch={r.mismatch ? 'true' : 'false'}>
                <th scope="row" className="px-3 py-1 font-normal">
                  {i + 1}
                </th>
                <td className="px-3 py-1">{r.expected ?? t('people.import.missing')}</td>
                <td className="px-3 py-1">
                  {r.given ?? t('people.import.missing')}
                  {r.mismatch && <span className="ml-2 font-semibold">({t('people.import.differs')})</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-4 flex justify-end">
        <button ref={closeRef} type="button" className={BTN_SECONDARY} onClick={onClose}>
          {t('admin.common.close')}
        </button>
      </div>
    </Dialog>
  );
}

const yesNo = (t: T, v: string | boolean | string[] | null) =>
  v === null ? t('people.import.preview.none') : typeof v === 'boolean' ? t(v ? 'people.import.preview.yes' : 'people.import.preview.no') : Array.isArray(v) ? v.join(', ') || t('people.import.preview.none') : v;

/** A dry run's diff (decision 0043): counts, then each row's changes before and after, and Run. */
function ImportPreview({ t, diff, onRun, onDiscard }: { t: T; diff: ImportDiff; onRun: () => void; onDiscard: () => void }) {
  const c = diff.counts;
  const field = (f: ImportDiffField) => t(`people.import.preview.fields.${f}`);
  return (
    <section aria-labelledby="import-preview-title" className="rounded border border-slate-300 p-3" data-testid="import-preview">
      <h3 id="import-preview-title" className="m-0 text-base font-semibold">
        {t('people.import.preview.title')}
      </h3>
      <p className="m-0 mt-1 text-sm" data-testid="import-preview-counts">
        {diff.kind === 'add'
          ? t('people.import.preview.countsAdd', { added: c.added, invited: c.invited })
          : t('people.import.preview.countsUpdate', { changed: c.changed, unchanged: c.unchanged, deactivated: c.deactivated })}
      </p>
      <div className="mt-2 max-h-72 overflow-auto" tabIndex={0} role="region" aria-labelledby="import-preview-title">
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">{t('people.import.preview.title')}</caption>
          <thead className="bg-slate-100">
            <tr>
              <th scope="col" className="px-2 py-1">{t('people.import.preview.line')}</th>
              <th scope="col" className="px-2 py-1">{t('people.import.preview.person')}</th>
              <th scope="col" className="px-2 py-1">{t(diff.kind === 'add' ? 'people.import.preview.details' : 'people.import.preview.changes')}</th>
            </tr>
          </thead>
          <tbody>
            {diff.kind === 'add'
              ? diff.added.map((a) => (
                  <tr key={a.line} className="border-t border-slate-200 align-top">
                    <td className="px-2 py-1">{a.line}</td>
                    <td className="break-all px-2 py-1">
                      {a.name}
                      <br />
                      {a.email}
                    </td>
                    <td className="px-2 py-1">
                      {t(a.invited ? 'people.import.preview.invited' : 'people.import.preview.new')}
                      {a.department ? ` / ${field('department')}: ${a.department}` : ''}
                    </td>
                  </tr>
                ))
              : diff.changed.map((r) => (
                  <tr key={r.line} className="border-t border-slate-200 align-top">
                    <td className="px-2 py-1">{r.line}</td>
                    <td className="break-all px-2 py-1">
                      {r.name}
                      <br />
                      {r.email}
                    </td>
                    <td className="px-2 py-1">
                      <ul className="m-0 list-none p-0">
                        {r.changes.map((ch) => (
                          <li key={ch.field}>{t('people.import.preview.change', { field: field(ch.field), before: yesNo(t, ch.before), after: yesNo(t, ch.after) })}</li>
                        ))}
                      </ul>
                    </td>
                  </tr>
                ))}
          </tbody>
        </table>
        {diff.truncated && <p className="m-0 mt-1 text-sm">{t('people.import.preview.truncated')}</p>}
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" className={BTN_PRIMARY} onClick={onRun} data-testid="import-run">
          {t('people.import.preview.run')}
        </button>
        <button type="button" className={BTN_SECONDARY} onClick={onDiscard}>
          {t('admin.common.cancel')}
        </button>
      </div>
    </section>
  );
}
