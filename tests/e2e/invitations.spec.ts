// Invitations into another organization (decision 0027): a person whose account an admin of
// another tenant added sees the invitation, accepts one and declines another, in both languages.
import { createClient } from '@libsql/client';
import { join } from 'node:path';
import { BASE, DEMO_PASSWORD, expect, gotoHydrated, LANGUAGES, origin, test } from './fixtures';
import { ensureDedicatedUsers } from './support/dedicated-users';
import { signInOnTenantHost } from './support/flows';
import { TEXT } from './support/text';

const T = {
  ja: { heading: '組織への招待', accept: (t: string) => `${t} への招待を承認`, decline: (t: string) => `${t} への招待を辞退`, accepted: 'Initech に参加しました。', declined: 'Globex 株式会社 への招待を辞退しました。', empty: '承認待ちの招待はありません。' },
  en: { heading: 'Invitations to organizations', accept: (t: string) => `Accept the invitation to ${t}`, decline: (t: string) => `Decline the invitation to ${t}`, accepted: 'You joined Initech.', declined: 'You declined the invitation to Globex 株式会社.', empty: 'There are no invitations waiting for you.' },
};

/** Pending invitations to Initech (3) and Globex (2) for this user, written as the admin flow would. */
async function invite(userId: number) {
  const db = createClient({ url: `file:${join(process.env.E2E_DB_DIR!, 'portal.db')}`, timeout: 5000 });
  try {
    const now = Date.now();
    for (const tenantId of [2, 3]) {
      await db.execute({ sql: 'DELETE FROM tenant_users WHERE tenant_id = ? AND user_id = ?', args: [tenantId, userId] });
      await db.execute({
        sql: 'INSERT INTO tenant_users (tenant_id, user_id, invitation_pending, invited_at, meishi_access_granted_at, created_at, updated_at) VALUES (?, ?, 1, ?, ?, ?, ?)',
        args: [tenantId, userId, now, now, now, now],
      });
    }
  } finally {
    db.close();
  }
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const email = `invited+${lang}@acme.test`;

    test('the invited person accepts one organization and declines another', async ({ page, checkA11y }) => {
      const ids = await ensureDedicatedUsers([{ from: 'user@acme.test', email, language: lang }]);
      await invite(ids[email]!);
      const t = T[lang];
      await signInOnTenantHost(page, TEXT[lang], 'acme', email, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);
      // My account points to the waiting invitations.
      await gotoHydrated(page, `${origin('acme')}${BASE}/my-account`);
      await page.getByTestId('invitations-notice').getByRole('link').click();
      await expect(page).toHaveURL(`${origin('acme')}${BASE}/invitations`);
      await gotoHydrated(page, `${origin('acme')}${BASE}/invitations`);
      await expect(page.getByRole('heading', { level: 1, name: t.heading })).toBeVisible();
      await expect(page.getByTestId('invitation')).toHaveCount(2);
      await checkA11y(page, 'invitations');

      await page.getByRole('button', { name: t.accept('Initech'), exact: true }).click();
      await expect(page.getByRole('status')).toContainText(t.accepted);
      await page.getByRole('button', { name: t.decline('Globex 株式会社'), exact: true }).click();
      await expect(page.getByRole('status')).toContainText(t.declined);
      await expect(page.getByTestId('invitations-empty')).toHaveText(t.empty);
      await checkA11y(page, 'invitations answered');
    });
  });
}
