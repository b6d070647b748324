// Accounts of the password journeys (forgot/reset, invitation, verification, change password,
// forced weak password, and reset and invitation again with JavaScript off), one per language, all
// Acme members. global-setup.ts writes them (through
// support/seed-password-accounts.ts) before any test runs; the tests only read these names.
import type { Lang } from '../fixtures';

export type PasswordAccount = 'reset' | 'invitee' | 'verify' | 'change' | 'weak' | 'reset-nojs' | 'invitee-nojs' | 'invitee-escaped';

export function passwordAccount(kind: PasswordAccount, lang: Lang): string {
  return `${kind}+${lang}@acme.test`;
}

/** Meets Acme's policy (length, mixed case, digit, special) but zxcvbn scores it 1 (< 2). */
export const WEAK_PASSWORD = 'Password1!';

/** A password the journeys set: meets the policy and scores 4. */
export const NEW_PASSWORD = 'Quiet-Harbor-Lantern-88';

export interface AccountSpec {
  kind: PasswordAccount;
  name: Record<Lang, string>;
  /** 'demo': the demo password; 'weak': WEAK_PASSWORD; null: not registered yet. */
  password: 'demo' | 'weak' | null;
  verified: boolean;
  apps: ('meishi' | 'scheduler')[];
  /** The mail the journey starts from, sent by the global setup. */
  mail?: 'invitation' | 'verification';
}

export const ACCOUNT_SPECS: AccountSpec[] = [
  { kind: 'reset', name: { ja: 'リセット 太郎', en: 'Reset Tester' }, password: 'demo', verified: true, apps: ['meishi', 'scheduler'] },
  { kind: 'invitee', name: { ja: '新人 花子', en: 'New Hire' }, password: null, verified: false, apps: ['meishi'], mail: 'invitation' },
  { kind: 'verify', name: { ja: '確認 次郎', en: 'Verify Tester' }, password: 'demo', verified: false, apps: ['meishi'], mail: 'verification' },
  { kind: 'change', name: { ja: '変更 三郎', en: 'Change Tester' }, password: 'demo', verified: true, apps: ['meishi'] },
  { kind: 'weak', name: { ja: '弱い 四郎', en: 'Weak Tester' }, password: 'weak', verified: true, apps: ['meishi', 'scheduler'] },
  { kind: 'reset-nojs', name: { ja: '静か 五郎', en: 'Plain Resetter' }, password: 'demo', verified: true, apps: ['meishi'] },
  { kind: 'invitee-nojs', name: { ja: '素朴 六子', en: 'Plain Joiner' }, password: null, verified: false, apps: ['meishi'], mail: 'invitation' },
  // Opens the invitation link as a mail client that HTML-escaped its query leaves it (decision 0037).
  { kind: 'invitee-escaped', name: { ja: '転記 七海', en: 'Escaped Joiner' }, password: null, verified: false, apps: ['meishi'], mail: 'invitation' },
];
