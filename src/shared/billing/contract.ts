// Contract figures as the subscription, get-more-services and trial-expired screens read them
// (spec 02 sections 3, 4 and 9): trial and contract state, the feature lines with their
// "unlimited" and "not subscribed" rules, the bulk-email plans on offer, the date formats, and the
// local-storage key of the "applied today" notice. Pure functions, shared by pages and islands.
import { BULK_EMAIL_PLANS } from './schemas';
import type { Lang } from '../i18n';

/** GET admin/contract-details (src/domain/billing/contract.ts); dates are ISO strings. */
export interface ContractDetails {
  status?: string;
  trial_ends_at: string | null;
  contract_starts_at: string | null;
  contract_ends_at: string | null;
  contract_renews_at: string | null;
  meishi_users_limit: number | null;
  meishi_active_accounts: number;
  is_tenant_subscribed_to_scheduler: boolean;
  scheduler_users_limit: number | null;
  scheduler_active_accounts: number;
  feature_negotiations_users_limit: number | null;
  negotiations_active_accounts: number;
  feature_bulk_email_monthly_limit: number | null;
  bulk_email_monthly_usage: number;
  is_feature_kintone_subscribed: boolean;
  is_feature_salesforce_subscribed: boolean;
  is_feature_relation_subscribed: boolean;
  is_feature_geniee_subscribed: boolean;
  feature_sso_users_limit: number | null;
  sso_active_accounts: number;
  is_feature_ip_restriction_subscribed: boolean;
  feature_scanner_app_keys_limit: number | null;
  scanner_app_active_keys: number;
}

const time = (iso: string | null): number | null => {
  if (!iso) return null;
  const ms = new Date(iso).getTime();
  return Number.isNaN(ms) ? null : ms;
};

/** Under contract: the contract has started (not in the future) and has not ended. */
export function isUnderContract(d: Pick<ContractDetails, 'contract_starts_at' | 'contract_ends_at'>, now: number): boolean {
  const starts = time(d.contract_starts_at);
  if (starts === null || starts > now) return false;
  const ends = time(d.contract_ends_at);
  return ends === null || ends > now;
}

/** Under trial: not under contract, and the trial ends in the future. */
export function isUnderTrial(d: Pick<ContractDetails, 'contract_starts_at' | 'contract_ends_at' | 'trial_ends_at'>, now: number): boolean {
  if (isUnderContract(d, now)) return false;
  const ends = time(d.trial_ends_at);
  return ends !== null && ends > now;
}

export type ContractState = 'contract' | 'trial' | 'trial-ended' | 'none';

export function contractState(d: ContractDetails, now: number): ContractState {
  if (isUnderContract(d, now)) return 'contract';
  if (isUnderTrial(d, now)) return 'trial';
  return d.trial_ends_at ? 'trial-ended' : 'none';
}

/** Whole days left in a running trial, counting a part day as one (null: not under trial). */
export function trialDaysLeft(d: Pick<ContractDetails, 'contract_starts_at' | 'contract_ends_at' | 'trial_ends_at'>, now: number): number | null {
  if (!isUnderTrial(d, now) || !d.trial_ends_at) return null;
  return Math.max(1, Math.ceil((Date.parse(d.trial_ends_at) - now) / 86_400_000));
}

/** The trial allows every feature (spec 02 section 9: "up to 100 users with all features"). */
export const TRIAL_USERS_LIMIT = 100;

export type FeatureKey =
  | 'meishi'
  | 'scheduler'
  | 'negotiations'
  | 'bulkEmail'
  | 'kintone'
  | 'salesforce'
  | 'relation'
  | 'geniee'
  | 'sso'
  | 'ipRestriction'
  | 'scannerKeys';

/**
 * One line of the subscriptions screen. `users`: a seat limit (null = unlimited) and the active
 * accounts; `bulkEmail`: a monthly limit and this month's usage; `keys`: a key limit and the keys
 * in use; `flag`: subscribed or not. A line that is not subscribed carries no figures.
 */
export type FeatureLine =
  | { key: FeatureKey; kind: 'users' | 'bulkEmail' | 'keys'; subscribed: true; limit: number | null; used: number }
  | { key: FeatureKey; kind: 'users' | 'bulkEmail' | 'keys'; subscribed: false }
  | { key: FeatureKey; kind: 'flag'; subscribed: boolean };

const users = (key: FeatureKey, limit: number | null, used: number, subscribed: boolean): FeatureLine =>
  subscribed ? { key, kind: 'users', subscribed: true, limit, used } : { key, kind: 'users', subscribed: false };

/**
 * The lines whose usage is over their plan (issue 27 part 7): more active members than a plan's
 * seats, more keys, more mail this month. Seeded or migrated data, or a plan lowered by the
 * provider, can leave a tenant there; the screen says so instead of showing "21 / 10" quietly.
 */
export function overLimit(lines: FeatureLine[]): { key: FeatureKey; kind: 'users' | 'bulkEmail' | 'keys'; limit: number; used: number }[] {
  return lines.flatMap((l) => (l.kind !== 'flag' && l.subscribed && l.limit !== null && l.used > l.limit ? [{ key: l.key, kind: l.kind, limit: l.limit, used: l.used }] : []));
}

/** The feature lines of spec 02 section 9, in the order the screen lists them. */
export function featureLines(d: ContractDetails): FeatureLine[] {
  const flag = (key: FeatureKey, subscribed: boolean): FeatureLine => ({ key, kind: 'flag', subscribed });
  // A null user limit is unlimited; a negotiations or SSO limit below 1 is no subscription.
  const negotiations = d.feature_negotiations_users_limit;
  const sso = d.feature_sso_users_limit;
  // A bulk-email or scanner-keys limit of 0 or less is no subscription.
  const bulk = d.feature_bulk_email_monthly_limit ?? 0;
  const keys = d.feature_scanner_app_keys_limit ?? 0;
  return [
    users('meishi', d.meishi_users_limit, d.meishi_active_accounts, true),
    users('scheduler', d.scheduler_users_limit, d.scheduler_active_accounts, d.is_tenant_subscribed_to_scheduler),
    users('negotiations', negotiations, d.negotiations_active_accounts, negotiations === null || negotiations >= 1),
    bulk > 0 ? { key: 'bulkEmail', kind: 'bulkEmail', subscribed: true, limit: bulk, used: d.bulk_email_monthly_usage } : { key: 'bulkEmail', kind: 'bulkEmail', subscribed: false },
    flag('kintone', d.is_feature_kintone_subscribed),
    flag('salesforce', d.is_feature_salesforce_subscribed),
    flag('relation', d.is_feature_relation_subscribed),
    flag('geniee', d.is_feature_geniee_subscribed),
    users('sso', sso, d.sso_active_accounts, sso === null || sso >= 1),
    flag('ipRestriction', d.is_feature_ip_restriction_subscribed),
    keys > 0 ? { key: 'scannerKeys', kind: 'keys', subscribed: true, limit: keys, used: d.scanner_app_active_keys } : { key: 'scannerKeys', kind: 'keys', subscribed: false },
  ];
}

/** The bulk-email plans offered: only those above the current monthly limit (none at 700,000). */
export function higherBulkEmailPlans(currentLimit: number | null): number[] {
  const current = currentLimit ?? 0;
  return BULK_EMAIL_PLANS.filter((p) => p > current);
}

const LOCALES: Record<Lang, string> = { ja: 'ja-JP', en: 'en-US' };

/** 700000 -> "700,000" in either language. */
// Made once per language: a formatter costs far more to make than to use (issue 23 found one
// made per figure to be an eighth of the subscriptions screen's CPU).
const counts: Partial<Record<Lang, Intl.NumberFormat>> = {};

export function formatCount(n: number, lang: Lang): string {
  return (counts[lang] ??= new Intl.NumberFormat(LOCALES[lang])).format(n);
}

const padded = new Map<string, Intl.DateTimeFormat>();

/** Trial and contract dates: "yyyy/MM/dd HH:mm:ss" (spec 02 section 9) in the given zone. */
export function formatContractDate(value: string | number | Date, timeZone: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  let f = padded.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    padded.set(timeZone, f);
  }
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of f.formatToParts(date)) parts[p.type] = p.value;
  return `${parts.year}/${parts.month}/${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** The browser's calendar day, "yyyy-MM-dd" (the "applied today" notice is per local day). */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Local-storage key of the contract application day, one per tenant (its initial subdomain). */
export function contractAppliedKey(initialSubdomain: string): string {
  return `contract-applied:${initialSubdomain}`;
}
