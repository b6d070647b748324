// The login screen's maintenance banner (spec 01 "Login screen": per-app messages for accounts,
// meishi and scheduler), fed from maintenance_messages rows seeded through the database.
import { BASE, expect, gotoHydrated, LANGUAGES, origin, test } from './fixtures';
import { TEXT } from './support/text';
import { writeReturning } from './support/db-write';

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });

    test('the login page shows the maintenance messages in force, in the reader’s language', async ({ page, db, checkA11y }) => {
      const t = TEXT[lang];
      const now = Date.now();
      const minute = 60_000;
      const rows: [app: string, ja: string, en: string, startsAt: number | null, endsAt: number | null][] = [
        ['accounts', '12月1日 2:00〜4:00 にアカウントのメンテナンスを行います。', 'Accounts maintenance on December 1, 2:00-4:00 JST.', now - minute, now + 30 * minute],
        ['meishi', '名刺アプリは一部機能を停止しています。', 'Some card app features are paused.', null, null],
        // Not in force: over, and not yet begun.
        ['scheduler', '終了したお知らせ', 'An announcement that is over', now - 60 * minute, now - minute],
        ['scheduler', '未来のお知らせ', 'An announcement still to come', now + 60 * minute, null],
      ];
      const ids: number[] = [];
      try {
        for (const [app, ja, en, startsAt, endsAt] of rows) {
          const r = await writeReturning(db, {
            sql: 'INSERT INTO maintenance_messages (app, message_ja, message_en, starts_at, ends_at, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
            args: [app, ja, en, startsAt, endsAt, now],
          });
          ids.push(Number(r.rows[0]!.id));
        }

        await gotoHydrated(page, `${origin('acme')}${BASE}/login`);
        const banner = page.getByRole('region', { name: t.maintenance });
        await expect(banner).toBeVisible();
        const messages = banner.getByRole('paragraph');
        await expect(messages).toHaveText(
          lang === 'ja'
            ? [`${t.maintenanceAccounts}: ${rows[0]![1]}`, `${t.maintenanceMeishi}: ${rows[1]![1]}`]
            : [`${t.maintenanceAccounts}: ${rows[0]![2]}`, `${t.maintenanceMeishi}: ${rows[1]![2]}`],
        );
        await checkA11y(page, 'login with maintenance banner');
      } finally {
        for (const id of ids) await db.execute({ sql: 'DELETE FROM maintenance_messages WHERE id = ?', args: [id] });
      }
      await page.reload();
      await expect(page.getByRole('region', { name: t.maintenance })).toHaveCount(0);
    });
  });
}
