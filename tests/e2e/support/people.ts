// Tenants of their own for the people journeys (spec 02 sections 2-9), and what an admin reads
// there, per language, written out literally (not looked up in locales/*.json), for the same
// reason as support/text.ts. Each call puts the tenant back to its starting state: one admin
// (a copy of admin@acme.test holding the card app), the given seats, no departments, no import
// log, and none of the users an earlier run added.
import { createClient } from '@libsql/client';
import { join } from 'node:path';
import type { Lang } from '../fixtures';
import { ensureSettingsTenant } from './admin-tenants';

/** Users the journeys create end in this domain, so a rerun can remove them first. */
export const PEOPLE_DOMAIN = 'people-e2e.test';

export interface PeopleTenant {
  label: string;
  lang: Lang;
  admin: string;
  /** Card app seats (null = unlimited). */
  meishiSeats: number | null;
  /** Scheduler seats; undefined = no scheduler app. */
  schedulerSeats?: number | null;
  /** SSO on for the tenant with this many SSO users allowed (the SSO options show). */
  ssoUsersLimit?: number;
}

export async function ensurePeopleTenant(p: PeopleTenant): Promise<number> {
  const id = await ensureSettingsTenant({ label: p.label, name: `People ${p.label}` }, [{ email: p.admin, language: p.lang, admin: true }]);
  const dir = process.env.E2E_DB_DIR;
  if (!dir) throw new Error('E2E_DB_DIR is set by playwright.config.ts');
  const db = createClient({ url: `file:${join(dir, 'portal.db')}`, timeout: 5000 });
  try {
    await db.batch(
      [
        { sql: `DELETE FROM users WHERE email LIKE ?`, args: [`%.${p.label}@${PEOPLE_DOMAIN}`] },
        { sql: 'DELETE FROM tenant_users WHERE tenant_id = ? AND user_id NOT IN (SELECT id FROM users WHERE email = ?)', args: [id, p.admin] },
        { sql: 'DELETE FROM departments WHERE tenant_id = ?', args: [id] },
        { sql: 'DELETE FROM import_logs WHERE tenant_id = ?', args: [id] },
        { sql: 'DELETE FROM activity_logs WHERE tenant_id = ?', args: [id] },
        { sql: "UPDATE tenant_apps SET seats = ? WHERE tenant_id = ? AND app = 'meishi'", args: [p.meishiSeats, id] },
        { sql: "DELETE FROM tenant_apps WHERE tenant_id = ? AND app = 'scheduler'", args: [id] },
        { sql: 'UPDATE tenants SET is_sso_enabled = ?, feature_sso_users_limit = ? WHERE id = ?', args: [p.ssoUsersLimit ? 1 : 0, p.ssoUsersLimit ?? 0, id] },
        { sql: 'UPDATE tenant_users SET is_sso_enabled = 0, saml_name_id = NULL WHERE tenant_id = ?', args: [id] },
        ...(p.schedulerSeats === undefined ? [] : [{ sql: "INSERT INTO tenant_apps (tenant_id, app, seats) VALUES (?, 'scheduler', ?)", args: [id, p.schedulerSeats] }]),
      ],
      'write',
    );
  } finally {
    db.close();
  }
  return id;
}

/** An address for a user the journey creates on `label`'s tenant. */
export function personEmail(local: string, label: string): string {
  return `${local}.${label}@${PEOPLE_DOMAIN}`;
}

export const PEOPLE_TEXT = {
  ja: {
    usersTitle: 'ユーザー管理',
    deactivatedTitle: '無効化されたユーザー',
    departmentsTitle: '部署管理',
    add: 'ユーザーを追加',
    addDialog: 'ユーザーの追加',
    editDialog: 'ユーザーの編集',
    tabSingle: '1人ずつ追加',
    tabCsv: 'CSVでまとめて追加',
    name: '名前',
    email: 'メールアドレス',
    mainDepartment: '所属部署',
    additionalColumn: '追加部署',
    meishi: '名刺アプリ',
    scheduler: 'スケジューラー',
    noSeats: '空きシートがありません',
    addSubmit: '追加',
    save: '保存',
    cancel: 'キャンセル',
    close: '閉じる',
    added: 'ユーザーを追加し、招待メールを送信しました',
    updated: 'ユーザーを更新しました',
    counts: (users: number, notRegistered: number, neverActive: number) => `ユーザー数:${users}未登録 (招待中):${notRegistered}未利用:${neverActive}`,
    inviteAll: '未登録のユーザー全員に招待を再送',
    inviteAllTitle: '招待を再送しますか？',
    inviteAllText: (n: number) => `まだ登録していないユーザー (${n}人) 全員に招待メールを再送します。`,
    inviteAllConfirm: '再送する',
    inviteAllSent: /^\d+人に招待メールを送信しました/,
    updatedNewEmail: 'ユーザーを更新し、新しいメールアドレスに招待メールを送信しました',
    nameRequired: '名前を入力してください',
    emailInvalid: '有効なメールアドレスを入力してください',
    resendLabel: (name: string) => `${name} さんに招待を再送`,
    inviteSent: '招待を送信しました',
    edit: (name: string) => `${name} さんを編集`,
    deactivate: (name: string) => `${name} さんを無効化`,
    deleteUser: (name: string) => `${name} さんを削除`,
    deactivateTitle: 'ユーザーを無効化しますか？',
    deactivateConfirm: '無効化',
    deactivated: (name: string) => `${name} さんを無効化しました`,
    more: 'その他の操作',
    viewDeactivated: '無効化されたアカウントを表示',
    back: 'ユーザー一覧に戻る',
    actionsFor: (name: string) => `${name} さんの操作`,
    lastAdminReason: 'この組織で唯一の管理者のため、管理者のままです。先に別のユーザーを管理者にしてください。',
    reactivate: '再有効化',
    reactivateTitle: 'ユーザーを再有効化しますか？',
    reactivated: (name: string) => `${name} さんを再有効化しました`,
    deleteTitle: 'ユーザーを削除しますか？',
    delete: '削除',
    deleting: '削除中',
    tourTitle: 'ユーザーを追加しましょう',
    tourDone: '閉じる',
    editByImport: 'インポートで編集',
    importDialog: 'インポートでユーザーを編集',
    chooseFile: 'CSVファイルを選択',
    upload: 'アップロード',
    importAdded: (n: number) => `${n}人のユーザーを追加しました`,
    mismatch: 'ファイルの列見出しがサンプルと一致しません',
    mismatchTitle: '列見出しが一致しません',
    wrongType: 'CSVファイル (.csv または .txt) を選択してください',
    tooLarge: 'ファイルが大きすぎます (50MBまで)',
    importLogs: 'インポート履歴',
    search: '名前またはメールアドレスで検索',
    searchButton: '検索',
    clearSearch: '検索を解除',
    perPage5: '5件ずつ表示',
    perPage25: '25件ずつ表示',
    range: (first: number, last: number, total: number) => `${total}件中 ${first}-${last}件`,
    auditDownload: '監査ログをダウンロード',
    auditTitle: '監査ログ',
    addDepartment: '部署を追加',
    departmentDialog: '部署の追加',
    editDepartmentDialog: '部署の編集',
    departmentName: '部署名',
    departmentAdded: '部署を追加しました',
    departmentUpdated: '部署を更新しました',
    departmentExists: 'この部署名は既に存在します',
    editDepartment: (name: string) => `${name} を編集`,
    deleteDepartment: (name: string) => `${name} を削除`,
    departmentDeleteTitle: '部署を削除しますか？',
    departmentHasUsers: 'ユーザーが所属している部署は削除できません',
    departmentDeleted: (name: string) => `部署「${name}」を削除しました`,
    noSeatToReactivate: '最初のアプリに空きシートがないため、再有効化できません。',
    lastAdminDeactivate: '最後の管理者は無効化できません',
    lastAdminDelete: '最後の管理者は削除できません',
    sample: 'サンプルCSVをダウンロード',
    removeTitle: 'アプリの利用を解除しますか？',
    removeScheduler: (n: number) => `このユーザーはスケジューラーに ${n} 件の予定があります。`,
    ssoColumn: 'SSO',
    enableSsoAll: '全ユーザーのSSOを有効にする',
    ssoAllOn: '全ユーザーのSSOが有効です',
    disableSsoAll: '全ユーザーのSSOを無効にする',
    ssoAllEnabled: '全ユーザーのSSOを有効にしました',
    ssoAllDisabled: '全ユーザーのSSOを無効にしました',
    on: '有効',
    off: '無効',
    ssoSwitch: 'SSO',
    samlNameId: 'SAML Name ID',
    samlNameIdTaken: 'このSAML Name IDは、組織の別のユーザーがすでに使っています',
    managerBanner: (tenant: string) => `テナント管理者として「${tenant}」を表示しています。`,
  },
  en: {
    usersTitle: 'Manage Users',
    deactivatedTitle: 'Deactivated Users',
    departmentsTitle: 'Manage Departments',
    add: 'Add user',
    addDialog: 'Add users',
    editDialog: 'Edit the user',
    tabSingle: 'Add one user',
    tabCsv: 'Add several by CSV',
    name: 'Name',
    email: 'Email',
    mainDepartment: 'Main department',
    additionalColumn: 'Additional departments',
    meishi: 'Card app',
    scheduler: 'Scheduler',
    noSeats: 'No more seats remaining',
    addSubmit: 'Add',
    save: 'Save',
    cancel: 'Cancel',
    close: 'Close',
    added: 'User added and invitation sent',
    updated: 'User updated',
    counts: (users: number, notRegistered: number, neverActive: number) => `Users:${users}Not registered (invited):${notRegistered}Never active:${neverActive}`,
    inviteAll: 'Resend the invitation to everyone not registered',
    inviteAllTitle: 'Resend the invitation?',
    inviteAllText: (n: number) => `The invitation mail goes again to every user who has not registered yet (${n}).`,
    inviteAllConfirm: 'Resend',
    inviteAllSent: /^Invitations sent: \d+/,
    updatedNewEmail: 'User updated; an invitation was sent to the new email address',
    nameRequired: 'Enter a name',
    emailInvalid: 'Enter a valid email address',
    resendLabel: (name: string) => `Resend the invitation to ${name}`,
    inviteSent: 'Invite sent',
    edit: (name: string) => `Edit ${name}`,
    deactivate: (name: string) => `Deactivate ${name}`,
    deleteUser: (name: string) => `Delete ${name}`,
    deactivateTitle: 'Deactivate the user?',
    deactivateConfirm: 'Deactivate',
    deactivated: (name: string) => `${name} deactivated`,
    more: 'More actions',
    viewDeactivated: 'View deactivated accounts',
    back: 'Back to the users',
    actionsFor: (name: string) => `Actions for ${name}`,
    lastAdminReason: 'This is the organization’s only admin, so they stay an admin. Make another user an admin first.',
    reactivate: 'Reactivate',
    reactivateTitle: 'Reactivate the user?',
    reactivated: (name: string) => `${name} reactivated`,
    deleteTitle: 'Delete the user?',
    delete: 'Delete',
    deleting: 'Deleting',
    tourTitle: 'Add your first users',
    tourDone: 'Got it',
    editByImport: 'Edit by import',
    importDialog: 'Edit users by import',
    chooseFile: 'Choose a CSV file',
    upload: 'Upload',
    importAdded: (n: number) => `Users added: ${n}`,
    mismatch: "The file's column headers do not match the sample",
    mismatchTitle: 'The column headers do not match',
    wrongType: 'Choose a CSV file (.csv or .txt)',
    tooLarge: 'The file is too large (50 MB at most)',
    importLogs: 'Import log',
    search: 'Search by name or email',
    searchButton: 'Search',
    clearSearch: 'Clear the search',
    perPage5: 'Show 5 rows per page',
    perPage25: 'Show 25 rows per page',
    range: (first: number, last: number, total: number) => `${first}-${last} of ${total}`,
    auditDownload: 'Download audit logs',
    auditTitle: 'Audit Logs',
    addDepartment: 'Add department',
    departmentDialog: 'Add a department',
    editDepartmentDialog: 'Edit the department',
    departmentName: 'Department name',
    departmentAdded: 'Department added',
    departmentUpdated: 'Department updated',
    departmentExists: 'This department name already exists',
    editDepartment: (name: string) => `Edit ${name}`,
    deleteDepartment: (name: string) => `Delete ${name}`,
    departmentDeleteTitle: 'Delete the department?',
    departmentHasUsers: 'A department with users cannot be deleted',
    departmentDeleted: (name: string) => `Department "${name}" deleted`,
    noSeatToReactivate: 'The first app has no free seat, so users cannot be reactivated.',
    lastAdminDeactivate: 'The last admin cannot be deactivated',
    lastAdminDelete: 'The last admin cannot be deleted',
    sample: 'Download the sample CSV',
    removeTitle: 'Remove access to the app?',
    removeScheduler: (n: number) => `This user has ${n} schedules in the scheduler.`,
    ssoColumn: 'SSO',
    enableSsoAll: 'Enable SSO for all users',
    ssoAllOn: 'SSO is enabled for all users',
    disableSsoAll: 'Disable SSO for all users',
    ssoAllEnabled: 'SSO enabled for all users',
    ssoAllDisabled: 'SSO disabled for all users',
    on: 'On',
    off: 'Off',
    ssoSwitch: 'SSO',
    samlNameId: 'SAML name ID',
    samlNameIdTaken: 'Another user of the organization already has this SAML name ID',
    managerBanner: (tenant: string) => `You are viewing ${tenant} as a tenant manager.`,
  },
} satisfies Record<Lang, Record<string, unknown>>;

/** Removes the invitations still queued for a people tenant's members (a large import queues many). */
export async function dropQueuedMail(label: string): Promise<void> {
  const dir = process.env.E2E_DB_DIR;
  if (!dir) throw new Error('E2E_DB_DIR is set by playwright.config.ts');
  const db = createClient({ url: `file:${join(dir, 'portal.db')}`, timeout: 5000 });
  try {
    await db.execute({ sql: `DELETE FROM mail_queue WHERE status = 'pending' AND user_id IN (SELECT id FROM users WHERE email LIKE ?)`, args: [`%.${label}@${PEOPLE_DOMAIN}`] });
  } finally {
    db.close();
  }
}
