/**
 * The every-minute cron of wrangler.toml [triggers]: the Worker's `scheduled` runs the people sweep
 * (unfinished deletions, the invitation mail queue) for it and the periodic jobs for any other.
 * `npm start` fires both locally on their schedule (scripts/dev-cron.mjs).
 */
export const PEOPLE_SWEEP_CRON = '* * * * *';

/**
 * SCHEDULE_MINUTES as a cron expression, when one states it: a whole divisor of an hour
 * (every 5, 15, 30 minutes) or of a day in whole hours (every 1, 2, 3, 4, 6, 8, 12, 24 hours).
 * Null for 0 (off) and for periods no cron expression states (every 45 or 90 minutes): the entry
 * uses a timer then.
 */
export function cronSchedule(minutes: number): string | null {
  if (!Number.isInteger(minutes) || minutes <= 0) return null;
  if (minutes < 60 && 60 % minutes === 0) return `*/${minutes} * * * *`;
  if (minutes % 60 === 0 && 24 % (minutes / 60) === 0) return minutes === 1440 ? '0 0 * * *' : `0 */${minutes / 60} * * *`;
  return null;
}
