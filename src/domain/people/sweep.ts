// The periodic sweep of the people area: finish unfinished deletions, carry on import jobs whose
// runner went away (decision 0030), then send the next batch of queued mail. Workers: the
// scheduled (cron) handler of src/entry/worker.ts; Node: a timer in src/entry/node.ts. Both are
// safe to run concurrently (rows and jobs are claimed by compare-and-set).
import type { Deps } from '../../deps';
import { resumeDeletionJobs } from './deletion';
import { resumeImportJobsNow } from './import/runner';
import { drainMailQueue } from './mail-queue';

export async function runPeopleSweep(deps: Deps): Promise<{ deletions: number; imports: number; mails: number }> {
  const deletions = await resumeDeletionJobs(deps);
  const imports = await resumeImportJobsNow(deps);
  const mails = await drainMailQueue(deps);
  return { deletions, imports, mails };
}
