// The import dry-run (issue 26, decision 0043): an admin previews a CSV import (the people it adds,
// the fields it changes before and after, with counts), then runs it; a preview whose members
// changed meanwhile is refused by the run. On a tenant of its own per language, axe on the preview.
import { BASE, expect, LANGUAGES, test } from './fixtures';
import { signInToPage } from './support/admin-text';
import { openServerDb } from './support/db-write';
import { ensurePeopleTenant, PEOPLE_TEXT, personEmail } from './support/people';
import { IMPORT_HEADERS } from '../../src/shared/people/schemas';

const csv = (header: readonly string[], rows: string[][]) => `\uFEFF${[header, ...rows].map((r) => r.join(',')).join('\r\n')}\r\n`;

const PREVIEW = {
  ja: {
    button: 'プレビュー',
    title: 'インポートのプレビュー',
    countsAdd: (a: number, i: number) => `追加: ${a} 人（うち既存アカウントへの招待 ${i} 人）`,
    countsUpdate: (c: number, u: number) => `変更: ${c} 人、変更なし: ${u} 人、無効化: 0 人`,
    change: (f: string, b: string, a: string) => `${f}: ${b} → ${a}`,
    name: '名前',
    run: 'このインポートを実行',
    updated: '2人のユーザーを更新しました',
    targetChanged: 'プレビューの後にメンバーが変更されました。最新の内容でもう一度プレビューしてください。',
    unknownDept: '2行目 (部署): 部署が見つかりません: 総務部',
  },
  en: {
    button: 'Preview',
    title: 'Import preview',
    countsAdd: (a: number, i: number) => `To add: ${a} (of which invitations to existing accounts: ${i})`,
    countsUpdate: (c: number, u: number) => `To change: ${c}; unchanged: ${u}; deactivated: 0`,
    change: (f: string, b: string, a: string) => `${f}: ${b} → ${a}`,
    name: 'Name',
    run: 'Run this import',
    updated: 'Users updated: 2',
    targetChanged: 'Members changed after the preview. Preview the file again to see the current changes.',
    unknownDept: 'Line 2 (Department): Department not found: 総務部',
  },
};

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const label = `pv-${lang}`;
    const admin = `pv-admin+${lang}@acme.test`;

    test.beforeAll(async () => {
      await ensurePeopleTenant({ label, lang, admin, meishiSeats: null });
    });

    test('an import previewed, then run; an edit previewed, run, and a stale preview refused', async ({ page, consoleGuard, checkA11y }) => {
      const x = PEOPLE_TEXT[lang];
      const p = PREVIEW[lang];
      const taro = personEmail('taro', label);
      const hanako = personEmail('hanako', label);
      await signInToPage(page, lang, label, admin, '/admin/users');

      // Add: the preview lists both, adds nobody yet; the run adds them.
      await page.getByRole('button', { name: x.add, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: x.addDialog });
      await dialog.getByRole('tab', { name: x.tabCsv }).click();
      // A file with an error: the preview is the import's refusal, under the header the person sees, the cell quoted (issue 27).
      consoleGuard.allowResourceError({ path: `${BASE}/api/admin/users/import`, status: 422 });
      await dialog.getByLabel(x.chooseFile).setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(csv(IMPORT_HEADERS[lang], [['山田 太郎', taro, '総務部', '', '1', '0', '0']]), 'utf8') });
      await dialog.getByRole('button', { name: p.button, exact: true }).click();
      await expect(dialog.getByTestId('import-row-errors')).toHaveText(p.unknownDept);
      await expect(dialog.getByTestId('import-preview')).toHaveCount(0);
      await dialog.getByLabel(x.chooseFile).setInputFiles({
        name: 'new.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv(IMPORT_HEADERS[lang], [['山田 太郎', taro, '', '', '1', '0', '0'], ['鈴木 花子', hanako, '', '', '1', '0', '0']]), 'utf8'),
      });
      await dialog.getByRole('button', { name: p.button, exact: true }).click();
      const preview = dialog.getByTestId('import-preview');
      await expect(preview.getByRole('heading', { name: p.title })).toBeVisible();
      await expect(preview.getByTestId('import-preview-counts')).toHaveText(p.countsAdd(2, 0));
      await expect(preview.getByRole('row').filter({ hasText: taro })).toContainText('山田 太郎');
      await checkA11y(page, 'import preview (add)');
      const ran = page.waitForResponse((r) => /\/api\/admin\/users\/import\/\d+\/run$/.test(new URL(r.url()).pathname));
      await preview.getByRole('button', { name: p.run }).click();
      expect(await (await ran).json()).toEqual({ message: 'success', count: 2 });
      await expect(dialog.getByTestId('import-outcome')).toHaveText(x.importAdded(2));
      await dialog.getByRole('button', { name: x.close }).click();
      await expect(page.getByTestId('user-row').filter({ hasText: hanako })).toContainText('鈴木 花子');

      // Edit by import: the preview shows the name before and after; the run applies it.
      const rename = (name: string) => ({ name: 'update.csv', mimeType: 'text/csv', buffer: Buffer.from(csv(IMPORT_HEADERS[lang], [[name, hanako, '', '', '1', '0', '0'], ['山田 太郎', taro, '', '', '1', '0', '0']]), 'utf8') });
      await page.getByRole('button', { name: x.editByImport }).click();
      const importDialog = page.getByRole('dialog', { name: x.importDialog });
      await importDialog.getByLabel(x.chooseFile).setInputFiles(rename('鈴木 花'));
      await importDialog.getByRole('button', { name: p.button, exact: true }).click();
      const edit = importDialog.getByTestId('import-preview');
      await expect(edit.getByTestId('import-preview-counts')).toHaveText(p.countsUpdate(1, 1));
      await expect(edit.getByRole('row').filter({ hasText: hanako })).toContainText(p.change(p.name, '鈴木 花子', '鈴木 花'));
      await checkA11y(page, 'import preview (edit)');
      await edit.getByRole('button', { name: p.run }).click();
      await expect(importDialog.getByTestId('import-outcome')).toHaveText(new RegExp(p.updated));

      // A preview whose member is edited before it runs: the run refuses and applies nothing.
      await importDialog.getByLabel(x.chooseFile).setInputFiles(rename('鈴木 花代'));
      const previewed = page.waitForResponse((r) => new URL(r.url()).pathname === `${BASE}/api/admin/users/import/update` && new URL(r.url()).searchParams.get('preview') === '1');
      await importDialog.getByRole('button', { name: p.button, exact: true }).click();
      const { jobId } = (await (await previewed).json()) as { jobId: number };
      await expect(importDialog.getByTestId('import-preview')).toContainText(p.change(p.name, '鈴木 花', '鈴木 花代'));
      const db = openServerDb();
      try {
        await db.batch([{ sql: 'UPDATE tenant_users SET updated_at = ? WHERE user_id = (SELECT id FROM users WHERE email = ?)', args: [Date.now() + 60_000, hanako] }], 'write');
      } finally {
        db.close();
      }
      consoleGuard.allowResourceError({ path: `${BASE}/api/admin/users/import/${jobId}/run`, status: 409 });
      await importDialog.getByTestId('import-run').click();
      await expect(importDialog.getByTestId('import-outcome')).toHaveText(p.targetChanged);
      await expect(importDialog.getByTestId('import-preview')).toHaveCount(0);
    });
  });
}
