// The three local start commands behave alike (issue 21 part 6, decision 0037): `npm start`,
// `npm run start:node` and `npm run start:deno` give the portal the same configuration (start:deno
// once left HANDOFF_BROWSER_BINDING on, so every hand-off on *.localhost answered 400), and
// `npm start` fires wrangler.toml's cron triggers on their schedule as production does.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cronMatches, localCrons, startCronTimer } from '../../scripts/dev-cron.mjs';
import { readConfig } from '../../src/config';
import { PEOPLE_SWEEP_CRON } from '../../src/entry/cron-schedule';

const toml = readFileSync('wrangler.toml', 'utf8');

/** The top-level [vars] of wrangler.toml: what the worker sees besides `--var`. */
function tomlVars(): Record<string, string> {
  const section = /^\[vars\]\n([\s\S]*?)(?=^\[)/m.exec(toml)?.[1] ?? '';
  return Object.fromEntries([...section.matchAll(/^(\w+)\s*=\s*"([^"]*)"/gm)].map((m) => [m[1]!, m[2]!]));
}

/** What a start script would give the portal, from `--print-env` (it builds and starts nothing then). */
function printedEnv(script: string, shell: Record<string, string>): Record<string, string> {
  const out = execFileSync(process.execPath, [`scripts/${script}`, '--print-env'], { env: { PATH: process.env.PATH!, HOME: process.env.HOME!, ...shell }, encoding: 'utf8' });
  return JSON.parse(out);
}

/** The configuration each runtime reads: the worker's from wrangler.toml [vars] and its `--var`s. */
function configs(shell: Record<string, string>) {
  return {
    worker: readConfig({ ...tomlVars(), ...printedEnv('start-worker.mjs', shell) }),
    node: readConfig(printedEnv('start-node.mjs', shell)),
    deno: readConfig(printedEnv('start-deno.mjs', shell)),
  };
}

describe('the start commands give the portal the same configuration', () => {
  it('dev mode and no hand-off browser binding on all three, the rest equal too', () => {
    const c = configs({ PORT: '8851' });
    for (const [name, config] of Object.entries(c)) {
      expect(config.DEV_MODE, name).toBe(true);
      expect(config.HANDOFF_BROWSER_BINDING, name).toBe(false);
      expect(config.PUBLIC_URL, name).toBe('http://localhost:8851');
    }
    expect(c.node).toEqual(c.worker);
    expect(c.deno).toEqual(c.worker);
  });

  it('a value set in the shell wins on all three', () => {
    const c = configs({ HANDOFF_BROWSER_BINDING: 'true', PORTAL_DOMAIN: 'portal.test' });
    for (const [name, config] of Object.entries(c)) {
      expect(config.HANDOFF_BROWSER_BINDING, name).toBe(true);
      expect(config.PUBLIC_URL, name).toBe('http://portal.test:8787');
    }
    expect(c.node).toEqual(c.worker);
    expect(c.deno).toEqual(c.worker);
  });
});

describe('npm start fires the cron triggers as production does', () => {
  it('reads the crons of the local worker from wrangler.toml; the every-minute one is the people sweep the worker dispatches on', () => {
    const crons = localCrons(toml);
    expect(crons).toEqual(['* * * * *', '17 * * * *']);
    expect(crons).toContain(PEOPLE_SWEEP_CRON);
  });

  it('matches cron expressions in UTC', () => {
    const at = (iso: string) => new Date(iso);
    expect(cronMatches('* * * * *', at('2026-11-26T05:03:00Z'))).toBe(true);
    expect(cronMatches('17 * * * *', at('2026-11-26T05:17:00Z'))).toBe(true);
    expect(cronMatches('17 * * * *', at('2026-11-26T05:18:00Z'))).toBe(false);
    expect(cronMatches('*/15 2-4 * * *', at('2026-11-26T03:45:00Z'))).toBe(true);
    expect(cronMatches('*/15 2-4 * * *', at('2026-11-26T05:45:00Z'))).toBe(false);
    expect(cronMatches('0 0 1 * *', at('2026-12-01T00:00:00Z'))).toBe(true);
    expect(cronMatches('0 9 * * 1-5', at('2026-11-28T09:00:00Z'))).toBe(false); // a Saturday
    expect(cronMatches('0 9 * * 7', at('2026-11-29T09:00:00Z'))).toBe(true); // Sunday as 7
  });

  it('fires each cron at the top of its minutes: 120 sweeps and 2 scheduled-job runs in two hours', () => {
    let now = Date.parse('2026-11-26T00:00:30Z');
    const queue: { at: number; fn: () => void }[] = [];
    const timers = {
      setTimeout: (fn: () => void, ms: number) => queue.push({ at: now + ms, fn }),
      clearTimeout: () => queue.splice(0),
    };
    const fired: { cron: string; at: string }[] = [];
    const stop = startCronTimer(localCrons(toml), (cron) => fired.push({ cron, at: new Date(now).toISOString() }), { now: () => now, timers });
    const end = Date.parse('2026-11-26T02:00:10Z');
    for (let next = queue.shift(); next && next.at <= end; next = queue.shift()) {
      now = next.at;
      next.fn();
    }
    stop();
    expect(fired.filter((f) => f.cron === '* * * * *')).toHaveLength(120);
    expect(fired.filter((f) => f.cron === '17 * * * *').map((f) => f.at)).toEqual(['2026-11-26T00:17:00.000Z', '2026-11-26T01:17:00.000Z']);
    expect(fired[0]).toEqual({ cron: '* * * * *', at: '2026-11-26T00:01:00.000Z' });
  });

  it('a timer that wakes early does not fire a minute twice', () => {
    let now = Date.parse('2026-11-26T00:16:59Z');
    const queue: (() => void)[] = [];
    const timers = { setTimeout: (fn: () => void) => queue.push(fn), clearTimeout: () => queue.splice(0) };
    const fired: string[] = [];
    startCronTimer(['17 * * * *'], (cron) => fired.push(cron), { now: () => now, timers });
    now = Date.parse('2026-11-26T00:16:59.990Z'); // 10 ms early: this is the 00:17 tick
    queue.shift()!();
    now = Date.parse('2026-11-26T00:17:00.005Z'); // woken again right after: not a second 00:17
    queue.shift()!();
    expect(fired).toEqual(['17 * * * *']);
  });
});
