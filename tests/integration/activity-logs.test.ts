// The activity-log screen (decision 0021): the host tenant's entries only, newest first, keyset
// pages of 50 with "older" / "newest" links, admins only.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLogs } from '../../src/db/schema';
import { createHarness, type Harness, type TestClient } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const signedIn = (email: string, host = ACME): Promise<TestClient> => h.signedIn(email, host);
const rows = (html: string) => [...html.matchAll(/<code[^>]*>([^<]+)<\/code>/g)].map((m) => m[1]);
const olderHref = (html: string) => /href="([^"]+)"[^>]*rel="next"/.exec(html)?.[1]?.replaceAll('&amp;', '&');

describe('activity log screen', () => {
  it('keeps who did it after the account is renamed or deleted (the entry stores the actor)', async () => {
    const user = await signedIn('user@acme.test');
    await user.post('/accounts/api/logout');
    const { users } = await import('../../src/db/schema');
    const { eq } = await import('drizzle-orm');
    await h.deps.db.update(users).set({ name: '改名 後' }).where(eq(users.email, 'user@acme.test'));
    await h.deps.db.delete(users).where(eq(users.email, 'user@acme.test'));
    const b = await signedIn('admin@acme.test');
    const page = await b.get('/accounts/admin/activity-logs');
    expect(page.text).toContain('user@acme.test');
    expect(page.text).toContain('山田 太郎');
    expect(page.text).not.toContain('改名 後');
    const csv = await b.get('/accounts/api/admin/activity-logs/export-csv');
    expect(csv.text).toMatch(/山田 太郎,user@acme\.test,login\.succeeded/);
  });

  it("shows this tenant's entries, newest first, with who, where and from what", async () => {
    const b = await signedIn('admin@acme.test');
    const t0 = h.clock.now();
    await h.deps.db.insert(activityLogs).values([
      { tenantId: 1, actorUserId: 1, action: 'test.older', targetType: 'user', targetId: '2', ipAddress: '198.51.100.7', userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36', createdAt: t0 + 1000 },
      { tenantId: 1, actorUserId: null, action: 'test.newer', createdAt: t0 + 2000 },
      { tenantId: 2, actorUserId: null, action: 'test.other-tenant', createdAt: t0 + 3000 },
    ]);
    const r = await b.get('/accounts/admin/activity-logs');
    expect(r.status).toBe(200);
    expect(r.text).toContain('<title>監査ログ | Nexta Meishi</title>');
    const actions = rows(r.text);
    expect(actions.slice(0, 2)).toEqual(['test.newer', 'test.older']);
    // The admin's own sign-in is there too; another tenant's entries never are.
    expect(actions.some((a) => a?.startsWith('login.'))).toBe(true);
    expect(actions).not.toContain('test.other-tenant');
    expect(r.text).toContain('user #2');
    expect(r.text).toContain('198.51.100.7');
    expect(r.text).toContain('Chrome 130 (Windows 10)');
    expect(r.text).toContain('システム');
    expect(r.text).toContain('href="/accounts/api/admin/activity-logs/export-csv"');
    expect(olderHref(r.text)).toBeUndefined();
  });

  it('filters by actor, action (exact or a family) and Tokyo dates, and shows one entry of this tenant in detail (decision 0032)', async () => {
    const b = await signedIn('admin@acme.test');
    // 2026-11-20 00:00 in Tokyo is 2026-11-19 15:00 UTC.
    const nov20 = Date.UTC(2026, 10, 19, 15);
    const [entry] = await h.deps.db
      .insert(activityLogs)
      .values([
        { tenantId: 1, actorUserId: null, actorName: '佐藤 50%', actorEmail: 'sato@acme.test', action: 'user.created', targetType: 'user', targetId: '9', details: { via: 'csv' }, createdAt: nov20 + 1000 },
        { tenantId: 1, actorUserId: null, actorName: 'Other', actorEmail: 'other@acme.test', action: 'user.deleted', createdAt: nov20 + 86_400_000 + 1000 },
        { tenantId: 1, actorUserId: null, actorName: 'Other', actorEmail: 'other@acme.test', action: 'department.created', createdAt: nov20 - 1000 },
        { tenantId: 2, actorUserId: null, actorName: '佐藤 50%', actorEmail: 'sato@acme.test', action: 'user.created', createdAt: nov20 + 2000 },
      ])
      .returning({ id: activityLogs.id });
    const get = async (q: string) => rows((await b.get(`/accounts/admin/activity-logs?${q}`)).text).filter((a) => !a?.startsWith('login.'));
    expect(await get('action=user.*')).toEqual(['user.deleted', 'user.created']);
    expect(await get('action=user.created')).toEqual(['user.created']);
    // Part of the name or address; LIKE's own characters are taken literally.
    expect(await get('actor=sato')).toEqual(['user.created']);
    expect(await get('actor=50%25')).toEqual(['user.created']);
    expect(await get('actor=_')).toEqual([]);
    // Dates are Tokyo days; "to" includes its whole day.
    expect(await get('from=2026-11-20&to=2026-11-20')).toEqual(['user.created']);
    expect(await get('from=2026-11-20')).toEqual(['user.deleted', 'user.created']);
    expect(await get('to=2026-11-19')).toEqual(['department.created']);
    // Values the screen does not offer are no filter.
    expect((await get('action=drop%20table&from=yesterday')).length).toBeGreaterThanOrEqual(3);
    // Readable names beside the code words, in the page's language.
    const page = await b.get('/accounts/admin/activity-logs?action=user.*');
    expect(page.text).toContain('ユーザーを追加');
    expect(page.text).toContain('action=user.*');
    // The detail panel: this tenant's entry only, every field and the details.
    const detail = await b.get(`/accounts/admin/activity-logs?entry=${entry!.id}`);
    expect(detail.text).toContain('data-testid="activity-detail"');
    expect(detail.text).toContain('&quot;via&quot;: &quot;csv&quot;');
    expect(detail.text).toContain('日本時間');
    const foreign = await h.deps.db.insert(activityLogs).values({ tenantId: 2, action: 'user.created', createdAt: nov20 }).returning({ id: activityLogs.id });
    expect((await b.get(`/accounts/admin/activity-logs?entry=${foreign[0]!.id}`)).text).not.toContain('data-testid="activity-detail"');
  });

  it('pages by 50 with an older link that never repeats or skips an entry; a bad cursor is the first page', async () => {
    const b = await signedIn('admin@acme.test', 'acme.localhost:8787');
    const t0 = h.clock.now() + 10_000;
    // Two entries per millisecond: the id breaks the tie.
    await h.deps.db.insert(activityLogs).values(Array.from({ length: 70 }, (_, i) => ({ tenantId: 1, action: `test.n${String(i).padStart(2, '0')}`, createdAt: t0 + Math.floor(i / 2) })));
    const first = await b.get('/accounts/admin/activity-logs');
    const page1 = rows(first.text);
    expect(page1).toHaveLength(50);
    expect(page1[0]).toBe('test.n69');
    const href = olderHref(first.text);
    expect(href).toMatch(/^\/accounts\/admin\/activity-logs\?before=\d+\.\d+$/);
    const second = await b.get(href!);
    const page2 = rows(second.text);
    const seen = [...page1, ...page2].filter((a) => a?.startsWith('test.n'));
    expect(seen).toEqual(Array.from({ length: 70 }, (_, i) => `test.n${String(69 - i).padStart(2, '0')}`));
    expect(second.text).toContain('data-testid="activity-newest"');
    for (const bad of ['x', '1.2.3', '-1.5', '9'.repeat(30) + '.1']) {
      expect(rows((await b.get(`/accounts/admin/activity-logs?before=${encodeURIComponent(bad)}`)).text)[0]).toBe('test.n69');
    }
  });

  it('is for admins only: a normal user and a tenant manager go to my-account', async () => {
    for (const [email, host] of [
      ['user@acme.test', ACME],
      ['manager@staff.test', 'initech.localhost:8787'],
    ] as const) {
      const r = await (await signedIn(email, host)).get('/accounts/admin/activity-logs');
      expect(r.status, email).toBe(302);
      expect(r.headers.get('location')).toBe('/accounts/my-account');
    }
  });
});
