// Contract figures as the subscription, get-more-services and trial-expired screens read them
// (spec 02 sections 4 and 9).
import { describe, expect, it } from 'vitest';
import {
  contractAppliedKey,
  contractState,
  featureLines,
  formatContractDate,
  formatCount,
  higherBulkEmailPlans,
  isUnderContract,
  isUnderTrial,
  localDay,
  trialDaysLeft,
  type ContractDetails,
} from '../../src/shared/billing/contract';

const NOW = Date.UTC(2026, 3, 27, 0, 0, 0);
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

const BASE: ContractDetails = {
  trial_ends_at: null,
  contract_starts_at: null,
  contract_ends_at: null,
  contract_renews_at: null,
  meishi_users_limit: 10,
  meishi_active_accounts: 4,
  is_tenant_subscribed_to_scheduler: false,
  scheduler_users_limit: 0,
  scheduler_active_accounts: 0,
  feature_negotiations_users_limit: 0,
  negotiations_active_accounts: 0,
  feature_bulk_email_monthly_limit: 0,
  bulk_email_monthly_usage: 0,
  is_feature_kintone_subscribed: false,
  is_feature_salesforce_subscribed: false,
  is_feature_relation_subscribed: false,
  is_feature_geniee_subscribed: false,
  feature_sso_users_limit: 0,
  sso_active_accounts: 0,
  is_feature_ip_restriction_subscribed: false,
  feature_scanner_app_keys_limit: 0,
  scanner_app_active_keys: 0,
};

describe('contract and trial state', () => {
  it('is under contract once the contract has started and until it ends (no end: open-ended)', () => {
    expect(isUnderContract({ contract_starts_at: iso(NOW - DAY), contract_ends_at: null }, NOW)).toBe(true);
    expect(isUnderContract({ contract_starts_at: iso(NOW), contract_ends_at: iso(NOW + DAY) }, NOW)).toBe(true);
    expect(isUnderContract({ contract_starts_at: iso(NOW + 1), contract_ends_at: null }, NOW)).toBe(false);
    expect(isUnderContract({ contract_starts_at: iso(NOW - 2 * DAY), contract_ends_at: iso(NOW - DAY) }, NOW)).toBe(false);
    expect(isUnderContract({ contract_starts_at: null, contract_ends_at: null }, NOW)).toBe(false);
  });

  it('is under trial only when not under contract and the trial ends in the future', () => {
    expect(isUnderTrial({ trial_ends_at: iso(NOW + DAY), contract_starts_at: null, contract_ends_at: null }, NOW)).toBe(true);
    expect(isUnderTrial({ trial_ends_at: iso(NOW - 1), contract_starts_at: null, contract_ends_at: null }, NOW)).toBe(false);
    expect(isUnderTrial({ trial_ends_at: iso(NOW + DAY), contract_starts_at: iso(NOW - DAY), contract_ends_at: null }, NOW)).toBe(false);
  });

  it('names the state the screen shows', () => {
    expect(contractState({ ...BASE, contract_starts_at: iso(NOW - DAY) }, NOW)).toBe('contract');
    expect(contractState({ ...BASE, trial_ends_at: iso(NOW + DAY) }, NOW)).toBe('trial');
    expect(contractState({ ...BASE, trial_ends_at: iso(NOW - DAY) }, NOW)).toBe('trial-ended');
    expect(contractState(BASE, NOW)).toBe('none');
  });
});

describe('days left in a trial (decision 0033)', () => {
  const trialEnding = (ms: number) => ({ trial_ends_at: iso(ms), contract_starts_at: null, contract_ends_at: null });
  it('whole days, a part day counted as one', () => {
    expect(trialDaysLeft(trialEnding(NOW + 14 * DAY), NOW)).toBe(14);
    expect(trialDaysLeft(trialEnding(NOW + 13 * DAY + 1), NOW)).toBe(14);
    expect(trialDaysLeft(trialEnding(NOW + 1000), NOW)).toBe(1);
  });
  it('none once the trial has ended or a contract runs', () => {
    expect(trialDaysLeft(trialEnding(NOW - 1), NOW)).toBeNull();
    expect(trialDaysLeft({ trial_ends_at: iso(NOW + DAY), contract_starts_at: iso(NOW - DAY), contract_ends_at: null }, NOW)).toBeNull();
  });
});

describe('feature lines', () => {
  const line = (d: Partial<ContractDetails>, key: string) => featureLines({ ...BASE, ...d }).find((l) => l.key === key);

  it('a null user limit is unlimited', () => {
    expect(line({ meishi_users_limit: null, meishi_active_accounts: 7 }, 'meishi')).toEqual({ key: 'meishi', kind: 'users', subscribed: true, limit: null, used: 7 });
    expect(line({ is_tenant_subscribed_to_scheduler: true, scheduler_users_limit: null }, 'scheduler')).toMatchObject({ subscribed: true, limit: null });
    expect(line({ is_tenant_subscribed_to_scheduler: false, scheduler_users_limit: null }, 'scheduler')).toMatchObject({ subscribed: false });
  });

  it('a negotiations or SSO limit below 1 is not subscribed', () => {
    expect(line({ feature_negotiations_users_limit: 0 }, 'negotiations')).toMatchObject({ subscribed: false });
    expect(line({ feature_negotiations_users_limit: -1 }, 'negotiations')).toMatchObject({ subscribed: false });
    expect(line({ feature_negotiations_users_limit: 1, negotiations_active_accounts: 1 }, 'negotiations')).toMatchObject({ subscribed: true, limit: 1, used: 1 });
    expect(line({ feature_sso_users_limit: 0 }, 'sso')).toMatchObject({ subscribed: false });
    expect(line({ feature_sso_users_limit: 10, sso_active_accounts: 3 }, 'sso')).toMatchObject({ subscribed: true, limit: 10, used: 3 });
  });

  it('a bulk email or scanner keys limit of 0 or less is not subscribed', () => {
    expect(line({ feature_bulk_email_monthly_limit: 0 }, 'bulkEmail')).toEqual({ key: 'bulkEmail', kind: 'bulkEmail', subscribed: false });
    expect(line({ feature_bulk_email_monthly_limit: -5 }, 'bulkEmail')).toMatchObject({ subscribed: false });
    expect(line({ feature_bulk_email_monthly_limit: 10_000, bulk_email_monthly_usage: 42 }, 'bulkEmail')).toMatchObject({ subscribed: true, limit: 10_000, used: 42 });
    expect(line({ feature_scanner_app_keys_limit: 0 }, 'scannerKeys')).toMatchObject({ subscribed: false });
    expect(line({ feature_scanner_app_keys_limit: 3, scanner_app_active_keys: 2 }, 'scannerKeys')).toMatchObject({ kind: 'keys', subscribed: true, limit: 3, used: 2 });
  });

  it('lists every feature of the contract details once, flags as subscribed or not', () => {
    const lines = featureLines({ ...BASE, is_feature_kintone_subscribed: true, is_feature_ip_restriction_subscribed: true });
    expect(lines.map((l) => l.key)).toEqual(['meishi', 'scheduler', 'negotiations', 'bulkEmail', 'kintone', 'salesforce', 'relation', 'geniee', 'sso', 'ipRestriction', 'scannerKeys']);
    expect(lines.find((l) => l.key === 'kintone')).toEqual({ key: 'kintone', kind: 'flag', subscribed: true });
    expect(lines.find((l) => l.key === 'geniee')).toEqual({ key: 'geniee', kind: 'flag', subscribed: false });
    expect(lines.find((l) => l.key === 'ipRestriction')).toEqual({ key: 'ipRestriction', kind: 'flag', subscribed: true });
  });
});

describe('bulk email plans offered', () => {
  it('only plans above the current limit; none at 700,000', () => {
    expect(higherBulkEmailPlans(0)).toEqual([10_000, 20_000, 30_000, 50_000, 100_000, 300_000, 700_000]);
    expect(higherBulkEmailPlans(null)).toHaveLength(7);
    expect(higherBulkEmailPlans(30_000)).toEqual([50_000, 100_000, 300_000, 700_000]);
    expect(higherBulkEmailPlans(300_000)).toEqual([700_000]);
    expect(higherBulkEmailPlans(700_000)).toEqual([]);
  });
});

describe('formats', () => {
  it('trial and contract dates are yyyy/MM/dd HH:mm:ss in the zone given', () => {
    expect(formatContractDate('2026-04-27T00:05:03Z', 'Asia/Tokyo')).toBe('2026/04/27 09:05:03');
    expect(formatContractDate('2026-12-31T15:00:00Z', 'Asia/Tokyo')).toBe('2027/01/01 00:00:00');
    expect(formatContractDate(Date.UTC(2026, 0, 4, 23, 59, 59), 'UTC')).toBe('2026/01/04 23:59:59');
    expect(formatContractDate('nope', 'UTC')).toBe('');
  });

  it('counts with thousands separators', () => {
    expect(formatCount(700_000, 'ja')).toBe('700,000');
    expect(formatCount(12_345, 'en')).toBe('12,345');
  });

  it('the applied-today notice is a local day per initial subdomain', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(contractAppliedKey('initech')).toBe('contract-applied:initech');
  });
});
