// The people sweep the servers (Node, Deno) run on a timer: unfinished user deletions and queued
// invitation mail, resumed at start and every `intervalMs`, never two runs at once. (Workers
// runs the same sweep from its cron trigger and queue.)
import type { Deps } from '../deps';
import { runPeopleSweep } from '../domain/people/sweep';

export function startPeopleSweep(deps: Deps, intervalMs: number): ReturnType<typeof setInterval> {
  let sweeping = false;
  const sweep = () => {
    if (sweeping) return;
    sweeping = true;
    runPeopleSweep(deps)
      .catch((e) => console.error(JSON.stringify({ level: 'error', msg: 'people sweep failed', error: String(e) })))
      .finally(() => (sweeping = false));
  };
  sweep();
  return setInterval(sweep, intervalMs);
}
