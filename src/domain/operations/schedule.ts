// The periodic jobs: one list, run by the Workers cron trigger (src/entry/worker.ts `scheduled`)
// and by a timer in the Node entry. Add a job here and both runtimes run it. A failing job is
// logged and does not stop the others.
import type { Deps } from '../../deps';
import { cleanupExpired } from './cleanup';
import { watchSsoCertificates } from '../sso/certificate-watch';

export interface ScheduledJob {
  name: string;
  run(deps: Deps): Promise<unknown>;
}

export const SCHEDULED_JOBS: ScheduledJob[] = [
  { name: 'cleanup-expired', run: cleanupExpired },
  // IdP metadata re-read daily, certificate expiry warnings (decision 0042).
  { name: 'sso-certificates', run: watchSsoCertificates },
];

export type JobOutcome = { name: string; ok: true; result: unknown } | { name: string; ok: false; error: string };

export async function runScheduledJobs(deps: Deps, jobs: ScheduledJob[] = SCHEDULED_JOBS): Promise<JobOutcome[]> {
  const out: JobOutcome[] = [];
  for (const job of jobs) {
    try {
      out.push({ name: job.name, ok: true, result: await job.run(deps) });
    } catch (e) {
      console.error(JSON.stringify({ level: 'error', event: 'scheduled_job_failed', job: job.name, error: String(e) }));
      out.push({ name: job.name, ok: false, error: String(e) });
    }
  }
  console.log(JSON.stringify({ level: 'info', event: 'scheduled_jobs', outcomes: out }));
  return out;
}
