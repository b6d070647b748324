// `npm start` fires the worker's cron triggers the way Cloudflare does in production: at the top
// of every minute, each cron of wrangler.toml's [triggers] that matches that minute (UTC) runs the
// `scheduled` handler, here through `wrangler dev --test-scheduled`'s /__scheduled?cron=<cron>.
// `wrangler dev` alone never fires them, so locally invitations queued beyond the first drain,
// retries and clean-ups waited forever (issue 21). src/entry/worker.ts dispatches on the cron.

/** The crons of the top-level [triggers] table of wrangler.toml (not an environment's). */
export function localCrons(toml) {
  let table = '';
  for (const line of toml.split('\n')) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header) table = header[1].trim();
    const crons = table === 'triggers' ? /^\s*crons\s*=\s*\[(.*)\]/.exec(line) : null;
    if (crons) return [...crons[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  }
  return [];
}

/** Whether one field of a cron expression (`*`, `5`, `1-5`, `*\/15`, `0,30`) admits `value`. */
function fieldMatches(field, value, min, max) {
  return field.split(',').some((part) => {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    let [from, to] = range === '*' ? [min, max] : range.split('-').map(Number);
    if (to === undefined) to = stepText === undefined ? from : max;
    return Number.isInteger(step) && step > 0 && value >= from && value <= to && (value - from) % step === 0;
  });
}

/** Whether a five-field cron expression fires at `date`'s minute, in UTC as Cloudflare's crons. */
export function cronMatches(expr, date) {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`not a five-field cron expression: ${expr}`);
  const [minute, hour, day, month, weekday] = fields;
  const dayOk = fieldMatches(day, date.getUTCDate(), 1, 31);
  const weekdayOk = fieldMatches(weekday, date.getUTCDay(), 0, 7) || (date.getUTCDay() === 0 && fieldMatches(weekday, 7, 0, 7));
  // As in cron: when both day fields are restricted, either one matching is enough.
  const days = day !== '*' && weekday !== '*' ? dayOk || weekdayOk : dayOk && weekdayOk;
  return fieldMatches(minute, date.getUTCMinutes(), 0, 59) && fieldMatches(hour, date.getUTCHours(), 0, 23) && fieldMatches(month, date.getUTCMonth() + 1, 1, 12) && days;
}

/**
 * Calls `fire(cron)` for each matching cron at the start of every minute from now on. Returns a
 * function that stops it. `now` and `timers` are for tests.
 */
export function startCronTimer(crons, fire, { now = () => Date.now(), timers = globalThis } = {}) {
  let handle;
  let next = Math.floor(now() / 60_000) * 60_000 + 60_000;
  const schedule = () => {
    handle = timers.setTimeout(tick, Math.max(0, next - now()));
  };
  const tick = () => {
    const t = now();
    // A timer may wake a little early: wait on rather than fire a minute twice.
    if (t < next - 1000) return schedule();
    const minute = new Date(next);
    for (const cron of crons) if (cronMatches(cron, minute)) fire(cron);
    // After a pause longer than a minute (a laptop asleep), go on from the coming minute.
    next = Math.max(next + 60_000, Math.floor(t / 60_000) * 60_000 + 60_000);
    schedule();
  };
  schedule();
  return () => timers.clearTimeout(handle);
}
