// Scheduled cleanup (issue 8): expired sessions, codes, challenges, links, throttles and SAML
// rows go; rows still alive, or expired less than the grace period ago, stay. Driven by the
// harness's controllable clock, through the same job list the cron trigger and the Node timer run.
import { count, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as s from '../../src/db/schema';
import { CLEANUP_GRACE_MS, CLEANUP_SLICE, cleanupExpired } from '../../src/domain/operations/cleanup';
import { runScheduledJobs, SCHEDULED_JOBS, type ScheduledJob } from '../../src/domain/operations/schedule';
import { createHarness, type Harness } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const HOUR = 60 * 60_000;

/** One row per table expiring at `at`, tagged with `tag` so the test can find it again. */
async function rowsExpiringAt(at: number, tag: string) {
  const { db } = h.deps;
  const now = h.clock.now();
  await db.batch([
    db.insert(s.sessions).values({ id: `s-${tag}`, tokenHash: `th-${tag}`, userId: 1, tenantId: 1, lastActivityAt: now, expiresAt: at }),
    db.insert(s.handoffCodes).values({ codeHash: `hc-${tag}`, userId: 1, sourceSessionId: 'x', targetTenantId: 1, path: '/', authMethod: 'password', expiresAt: at }),
    db.insert(s.loginChallenges).values({ id: `lc-${tag}`, tokenHash: `lc-${tag}`, userId: 1, kind: 'otp', expiresAt: at }),
    db.insert(s.passwordResets).values({ userId: 1, tokenHash: `pr-${tag}`, expiresAt: at }),
    db.insert(s.emailLinks).values({ userId: 1, purpose: 'verify', email: 'admin@acme.test', signatureHash: `el-${tag}`, expiresAt: at }),
    db.insert(s.rememberedDevices).values({ id: `rd-${tag}`, userId: 1, tokenHash: `rd-${tag}`, expiresAt: at }),
    db.insert(s.samlRequests).values({ id: `sr-${tag}`, tenantId: 1, browserBindingHash: 'b', expiresAt: at }),
    db.insert(s.samlAssertions).values({ tenantId: 1, assertionId: `sa-${tag}`, expiresAt: at }),
    db.insert(s.outlookAddinTokens).values({ tokenHash: `ot-${tag}`, userId: 1, expiresAt: at }),
    db.insert(s.passkeyChallenges).values({ challenge: `pc-${tag}`, purpose: 'sign-in', browserHash: 'b', expiresAt: at }),
    db.insert(s.throttles).values({ key: `t-${tag}`, hits: 3, resetAt: at }),
    db.insert(s.importJobs).values({ tenantId: 1, kind: 'add', filename: `${tag}.csv`, lang: 'ja', status: 'success', updatedAt: now, finishedAt: at }),
  ]);
  // twofa_pending has one row per user: a different user per tag.
  const userId = { old: 2, grace: 3, alive: 4 }[tag]!;
  await db.insert(s.twofaPending).values({ userId, method: 'app', expiresAt: at });
}

const TABLES = [
  s.sessions,
  s.handoffCodes,
  s.loginChallenges,
  s.passwordResets,
  s.emailLinks,
  s.twofaPending,
  s.rememberedDevices,
  s.samlRequests,
  s.samlAssertions,
  s.outlookAddinTokens,
  s.passkeyChallenges,
  s.throttles,
  s.importJobs,
];

async function counts() {
  const out: number[] = [];
  for (const t of TABLES) out.push((await h.deps.db.select({ n: count() }).from(t).get())!.n);
  return out;
}

describe('cleanupExpired', () => {
  it('deletes rows expired longer than the grace period ago, in every table, and keeps the rest', async () => {
    const now = h.clock.now();
    const before = await counts();
    await rowsExpiringAt(now - CLEANUP_GRACE_MS - 1, 'old');
    await rowsExpiringAt(now - CLEANUP_GRACE_MS + 60_000, 'grace');
    await rowsExpiringAt(now + HOUR, 'alive');

    const report = await cleanupExpired(h.deps);
    expect(report).toEqual({
      sessions: 1,
      handoff_codes: 1,
      login_challenges: 1,
      password_resets: 1,
      email_links: 1,
      twofa_pending: 1,
      remembered_devices: 1,
      saml_requests: 1,
      saml_assertions: 1,
      outlook_addin_tokens: 1,
      passkey_challenges: 1,
      throttles: 1,
      import_jobs: 1,
    });
    expect(await counts()).toEqual(before.map((n) => n + 2));
    expect(await h.deps.db.select().from(s.sessions).where(eq(s.sessions.id, 's-old')).get()).toBeUndefined();
    expect(await h.deps.db.select().from(s.sessions).where(eq(s.sessions.id, 's-grace')).get()).toBeDefined();

    // Two hours later the grace row and (one hour past its end) nothing else has gone.
    h.clock.advance(2 * HOUR);
    const later = await cleanupExpired(h.deps);
    expect(later.sessions).toBe(1);
    expect(await h.deps.db.select().from(s.sessions).where(eq(s.sessions.id, 's-alive')).get()).toBeDefined();
    h.clock.advance(HOUR);
    expect((await cleanupExpired(h.deps)).sessions).toBe(1);
    expect(await counts()).toEqual(before);
  });

  it('a signed-in session survives cleanup; nothing that is alive is touched', async () => {
    const b = h.client('acme.localhost:8787');
    expect((await b.login('admin@acme.test')).body.message).toBe('success');
    const report = await cleanupExpired(h.deps);
    expect(Object.values(report).every((n) => n === 0)).toBe(true);
    expect((await b.get('/accounts/api/user')).status).toBe(200);
  });

  it('works through a backlog larger than one slice', async () => {
    const now = h.clock.now();
    const rows = Array.from({ length: CLEANUP_SLICE * 2 + 7 }, (_, i) => ({ key: `bulk-${i}`, hits: 1, resetAt: now - 2 * HOUR }));
    for (let i = 0; i < rows.length; i += 200) await h.deps.db.insert(s.throttles).values(rows.slice(i, i + 200));
    expect((await cleanupExpired(h.deps)).throttles).toBe(rows.length);
  });
});

describe('scheduled jobs', () => {
  it('the schedule runs cleanup, and one failing job does not stop the next', async () => {
    expect(SCHEDULED_JOBS.map((j) => j.name)).toContain('cleanup-expired');
    await rowsExpiringAt(h.clock.now() - 2 * HOUR, 'old');
    const ran: string[] = [];
    const jobs: ScheduledJob[] = [
      { name: 'broken', run: async () => Promise.reject(new Error('boom')) },
      ...SCHEDULED_JOBS,
      { name: 'after', run: async () => ran.push('after') },
    ];
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...a: unknown[]) => errors.push(a);
    try {
      const outcomes = await runScheduledJobs(h.deps, jobs);
      expect(outcomes.map((o) => [o.name, o.ok])).toEqual([
        ['broken', false],
        ['cleanup-expired', true],
        ['sso-certificates', true],
        ['after', true],
      ]);
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
    expect(ran).toEqual(['after']);
    expect(await h.deps.db.select().from(s.sessions).where(eq(s.sessions.id, 's-old')).get()).toBeUndefined();
  });
});
