// A resend to chosen people is sent in the request, ahead of the throttled queue (issue 21 part 6,
// decision 0037): right after "resend to all" in a large tenant, the one person an admin is on the
// phone with gets their mail at once, still through their queue row (claimed by compare-and-set,
// so parallel requests send each row once, and a failed send stays for the sweep).
import { and, eq, like } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mailQueue, outbox, tenantUsers, users } from '../../src/db/schema';
import { drainMailQueue } from '../../src/domain/people/mail-queue';
import { inviteUsers } from '../../src/domain/people/users';
import { scopeOf } from '../../src/domain/tenants/scope';
import { createHarness, type Harness, type TestClient } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  // Let background drains finish before the database closes.
  await new Promise((r) => setTimeout(r, 50));
  h.close();
});

const ACME = 'acme.localhost:8787';
const API = '/accounts/api';

async function signIn(): Promise<TestClient> {
  const b = h.client(ACME);
  expect((await b.login('admin@acme.test')).body.message).toBe('success');
  return b;
}

/** `n` members of Acme who have not registered yet (bulk/000@acme.test ...), ids ascending. */
async function unregistered(n: number): Promise<number[]> {
  const now = h.clock.now();
  const rows = Array.from({ length: n }, (_, i) => ({ name: `bulk ${i}`, email: `bulk${String(i).padStart(3, '0')}@acme.test`, createdAt: now, updatedAt: now }));
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 50) ids.push(...(await h.deps.db.insert(users).values(rows.slice(i, i + 50)).returning({ id: users.id })).map((r) => r.id));
  for (let i = 0; i < ids.length; i += 50) {
    await h.deps.db.insert(tenantUsers).values(ids.slice(i, i + 50).map((userId) => ({ tenantId: 1, userId, meishiAccessGrantedAt: now, invitedAt: now, createdAt: now, updatedAt: now })));
  }
  return ids;
}

const emailOf = (i: number) => `bulk${String(i).padStart(3, '0')}@acme.test`;
const mailsTo = async (email: string) => (await h.deps.db.select().from(outbox).where(eq(outbox.recipient, email))).length;
const bulkMails = async () => (await h.deps.db.select().from(outbox).where(like(outbox.recipient, 'bulk%'))).length;
const rowsOf = (userId: number) => h.deps.db.select().from(mailQueue).where(and(eq(mailQueue.userId, userId), eq(mailQueue.tenantId, 1)));
const pending = async () => (await h.deps.db.select().from(mailQueue).where(eq(mailQueue.status, 'pending'))).length;

describe('resend to chosen people', () => {
  it('is sent in the request although 250 older invitations wait in the queue', async () => {
    const ids = await unregistered(250);
    const b = await signIn();
    // One row a drain, so the queue behind "resend to all" stays long while the test looks.
    h.deps.config.MAIL_QUEUE_BATCH = 1;
    expect((await b.post(`${API}/admin/users/invite`, { users: 'all' })).body).toEqual({ message: 'success', count: 250 });
    // The answer's own drain sends the oldest row, after the answer.
    await vi.waitFor(async () => expect(await mailsTo(emailOf(0))).toBe(1));
    expect(await pending()).toBe(249);

    // The newest member, whose row is last in the queue: mailed by the time the answer comes.
    const chosen = ids.at(-1)!;
    const r = await b.post(`${API}/admin/users/invite`, { users: [chosen] });
    expect(r.body).toEqual({ message: 'success', count: 1 });
    expect(await mailsTo(emailOf(249))).toBe(1);
    expect(await bulkMails()).toBe(2);
    // Their waiting row was the one sent (no second row, no second mail later); 248 still wait.
    expect((await rowsOf(chosen)).map((q) => q.status)).toEqual(['sent']);
    expect(await pending()).toBe(248);
    h.deps.config.MAIL_QUEUE_BATCH = 500;
    await drainMailQueue(h.deps);
    expect(await mailsTo(emailOf(249))).toBe(1);
    expect(await bulkMails()).toBe(250);
  });

  it('a failed send stays queued for the sweep, and the next resend sends it at once despite its back-off', async () => {
    const [id] = await unregistered(1);
    const b = await signIn();
    const mailer = h.deps.mailer;
    h.deps.mailer = { send: async () => Promise.reject(new Error('smtp down')) };
    expect((await b.post(`${API}/admin/users/invite`, { users: [id] })).body).toEqual({ message: 'success', count: 1 });
    h.deps.mailer = mailer;
    const [row] = await rowsOf(id!);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row!.availableAt).toBeGreaterThan(h.clock.now());
    expect(await mailsTo(emailOf(0))).toBe(0);
    // Asked again: the same row, due now, sent in the request.
    expect((await b.post(`${API}/admin/users/invite`, { users: [id] })).body).toEqual({ message: 'success', count: 1 });
    expect((await rowsOf(id!)).map((q) => q.status)).toEqual(['sent']);
    expect(await mailsTo(emailOf(0))).toBe(1);
  });

  it('the same resend fired 8 times in parallel sends at most one mail per queued row', async () => {
    const [id] = await unregistered(1);
    const b = await signIn();
    // "Resend to all" queued the person's row (no drain yet): every request below finds it waiting.
    expect(await inviteUsers(h.deps, await scopeOf(h.deps.db, 1), 'all', { userId: 1, ip: null, userAgent: null })).toBe(1);
    const answers = await Promise.all(Array.from({ length: 8 }, () => b.post(`${API}/admin/users/invite`, { users: [id] })));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    await vi.waitFor(async () => expect((await rowsOf(id!)).every((q) => q.status === 'sent')).toBe(true));
    const rows = await rowsOf(id!);
    const mails = await mailsTo(emailOf(0));
    expect(mails).toBe(rows.length);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBeLessThanOrEqual(9);
  });
});
