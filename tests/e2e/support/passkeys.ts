// What the passkey journeys need from outside the browser (decision 0039): accounts of their own
// with no passkey yet, and a tenant of their own whose policy requires passkeys (a policy on Acme
// would stop every other journey at the enrolment screen). Short, idempotent writes to the server's
// database file, like support/twofa.ts.
import type { CDPSession, Page } from '@playwright/test';
import { ensureDedicatedUsers, type DedicatedUser } from './dedicated-users';
import { openServerDb, writeReturning } from './db-write';
import { DEMO_PASSWORD, expect } from '../fixtures';

/** Dedicated users with no passkey and no passkey or password-check throttles. */
export async function ensurePasskeyUsers(users: DedicatedUser[]): Promise<Record<string, number>> {
  const ids = await ensureDedicatedUsers(users);
  const db = openServerDb();
  try {
    for (const id of Object.values(ids)) {
      await db.batch(
        [
          { sql: 'DELETE FROM passkeys WHERE user_id = ?', args: [id] },
          { sql: "DELETE FROM throttles WHERE key IN ('passkey-add:' || ?1, 'verify-password:' || ?1)", args: [id] },
        ],
        'write',
      );
    }
  } finally {
    db.close();
  }
  return ids;
}

/** A contracted tenant with the card app, subscribed to 2FA enforcement, with this passkey policy
 *  (every member requires one, by default), and `emails` as members (their Acme membership copied). */
export async function ensurePasskeyTenant(label: string, name: string, emails: string[], policy: 'allowed' | 'admins' | 'everyone' = 'everyone'): Promise<number> {
  const db = openServerDb();
  try {
    const r = await writeReturning(db, {
      sql: `INSERT INTO tenants (name, initial_subdomain, status, is_feature_twofa_enforcement_subscribed, passkey_policy)
            VALUES (?, ?, 'contracted', 1, ?)
            ON CONFLICT (initial_subdomain) DO UPDATE SET name = excluded.name, is_feature_twofa_enforcement_subscribed = 1, passkey_policy = excluded.passkey_policy
            RETURNING id`,
      args: [name, label, policy],
    });
    const id = Number(r.rows[0]!.id);
    await db.execute({ sql: "INSERT INTO tenant_apps (tenant_id, app, seats) VALUES (?, 'meishi', NULL) ON CONFLICT DO NOTHING", args: [id] });
    const cols = (await db.execute('PRAGMA table_info(tenant_users)')).rows.map((row) => String(row.name)).filter((c) => c !== 'id');
    const select = cols.map((c) => (c === 'tenant_id' ? '?' : c)).join(', ');
    for (const email of emails) {
      await db.execute({
        sql: `INSERT INTO tenant_users (${cols.join(', ')}) SELECT ${select} FROM tenant_users
              WHERE user_id = (SELECT id FROM users WHERE email = ?) AND tenant_id = (SELECT id FROM tenants WHERE initial_subdomain = 'acme')
              ON CONFLICT DO NOTHING`,
        args: [id, email],
      });
    }
    return id;
  } finally {
    db.close();
  }
}

/** What a user reads on the passkey screens, written out (not looked up in locales/*.json). */
export const PASSKEYS = {
  ja: {
    entry: 'パスキー',
    title: /^パスキー \| /,
    heading: 'パスキー',
    empty: 'パスキーはまだありません。',
    add: 'パスキーを追加',
    verifyTitle: '本人確認',
    password: 'パスワード',
    confirm: '確認',
    nameTitle: '新しいパスキーの名前',
    name: '名前',
    save: '保存',
    added: 'パスキーを追加しました',
    synced: /同期済み|同期可能|このデバイスのみ/,
    removeLabel: (name: string) => `パスキー ${name} を削除`,
    removeTitle: 'パスキーを削除しますか？',
    remove: '削除',
    removed: (name: string) => `パスキー ${name} を削除しました`,
    signIn: 'パスキーでログイン',
    instead: '代わりにパスキーを使う',
    actionsFor: (name: string) => `${name} さんの操作`,
    removeAll: 'パスキーを削除',
    removeAllLabel: (name: string) => `${name} のパスキーを削除`,
    removeAllTitle: 'このユーザーのパスキーを削除しますか？',
    removedAll: (name: string) => `${name} のパスキーを削除しました`,
    off: '無効',
    policyAdmins: '管理者にパスキーを求める',
    policyConfirmTitle: 'パスキーを必須にしますか？',
    policyConfirm: '必須にする',
    policySaved: '2段階認証の設定を保存しました',
    enrolTitle: /^パスキーの追加 \| /,
    enrolHeading: 'パスキーの追加',
    enrolButton: 'パスキーを追加',
  },
  en: {
    entry: 'Passkeys',
    title: /^Passkeys \| /,
    heading: 'Passkeys',
    empty: 'You have no passkeys yet.',
    add: 'Add a passkey',
    verifyTitle: 'Confirm it is you',
    password: 'Password',
    confirm: 'Confirm',
    nameTitle: 'Name your new passkey',
    name: 'Name',
    save: 'Save',
    added: 'Passkey added',
    synced: /Synced|Can be synced|This device only/,
    removeLabel: (name: string) => `Remove passkey ${name}`,
    removeTitle: 'Remove passkey?',
    remove: 'Remove',
    removed: (name: string) => `Passkey ${name} removed`,
    signIn: 'Sign in with a passkey',
    instead: 'Use a passkey instead',
    actionsFor: (name: string) => `Actions for ${name}`,
    removeAll: 'Remove passkeys',
    removeAllLabel: (name: string) => `Remove the passkeys of ${name}`,
    removeAllTitle: "Remove this user's passkeys?",
    removedAll: (name: string) => `Passkeys of ${name} removed`,
    off: 'Off',
    policyAdmins: 'Administrators must have a passkey',
    policyConfirmTitle: 'Require passkeys?',
    policyConfirm: 'Require',
    policySaved: 'Two-factor settings saved',
    enrolTitle: /^Add a passkey \| /,
    enrolHeading: 'Add a passkey',
    enrolButton: 'Add a passkey',
  },
} as const;

/** A platform authenticator with resident keys and user verification, answering at once. */
export async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', ctap2Version: 'ctap2_1', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

/** From /passkeys: Add, the password again, the browser's ceremony, then the prefilled name changed. */
export async function addPasskey(page: Page, x: (typeof PASSKEYS)['ja' | 'en'], checkA11y?: (page: Page, label?: string) => Promise<void>) {
  await page.getByRole('button', { name: x.add, exact: true }).click();
  const verify = page.getByRole('dialog', { name: x.verifyTitle });
  await expect(verify).toBeVisible();
  await expect(verify.getByLabel(x.password, { exact: true })).toBeFocused();
  await checkA11y?.(page, 'passkeys, confirm it is you');
  await verify.getByLabel(x.password, { exact: true }).fill(DEMO_PASSWORD);
  await verify.getByRole('button', { name: x.confirm, exact: true }).click();
  const naming = page.getByRole('dialog', { name: x.nameTitle });
  await expect(naming).toBeVisible();
  const name = naming.getByLabel(x.name, { exact: true });
  await expect(name).toBeFocused();
  expect((await name.inputValue()).length).toBeGreaterThan(0);
  await checkA11y?.(page, 'passkeys, name the new one');
  await name.fill('My laptop');
  await naming.getByRole('button', { name: x.save, exact: true }).click();
  await expect(naming).toBeHidden();
  await expect(page.getByTestId('passkeys-message')).toHaveText(x.added);
  await expect(page.getByTestId('passkey-item').getByTestId('passkey-name')).toHaveText('My laptop');
}
