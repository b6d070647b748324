import { describe, expect, it } from 'vitest';
import { cronSchedule } from '../../src/entry/cron-schedule';

describe('the scheduled jobs\' period as a cron expression (Deno.cron)', () => {
  it('states whole divisors of an hour and of a day', () => {
    expect(cronSchedule(1)).toBe('*/1 * * * *');
    expect(cronSchedule(15)).toBe('*/15 * * * *');
    expect(cronSchedule(60)).toBe('0 */1 * * *');
    expect(cronSchedule(360)).toBe('0 */6 * * *');
    expect(cronSchedule(1440)).toBe('0 0 * * *');
  });

  it('is null for off and for periods a cron expression cannot state (a timer runs them)', () => {
    for (const m of [0, -5, 45, 90, 7 * 60, 2.5, Number.NaN]) expect(cronSchedule(m)).toBeNull();
  });
});
