// Tenants of their own for the tenant-settings journeys (spec 02): changing the subdomain, turning
// on the IP restriction, enforcing two-factor authentication or tightening the password policy on
// Acme would pull the ground from under every other journey. Each journey gets a tenant (one per
// language) with an admin and, where it needs one, a member: copies of the demo users (same name
// and password, see dedicated-users.ts) whose only membership is that tenant.
//
// Writes go straight into the server's database file, like dedicated-users.ts (WAL; both sides
// wait for a lock): single short statements, idempotent, and each call puts the tenant back to
// its starting state, so a retried test starts from the same place.
import { ensureDedicatedUsers } from './dedicated-users';
import { serverEnv } from './server-env';
import { openServerDb, writeReturning } from './db-write';

const DAY = 86_400_000;

export interface SettingsTenant {
  /** Initial subdomain: the journey's host label. */
  label: string;
  name: string;
  status?: 'contracted' | 'trial' | 'trial_expired_not_yet_contracted';
  ipRestrictionSubscribed?: boolean;
  twofaEnforcementSubscribed?: boolean;
  ssoUsersLimit?: number;
  /** contract_details columns to set (the rest: a contract that started 30 days ago). */
  contract?: Partial<{
    trial_ends_at: number | null;
    contract_starts_at: number | null;
    contract_ends_at: number | null;
    contract_renews_at: number | null;
    feature_bulk_email_monthly_limit: number;
    bulk_email_monthly_usage: number;
    feature_negotiations_users_limit: number;
    negotiations_active_accounts: number;
    is_feature_kintone_subscribed: number;
    feature_scanner_app_keys_limit: number;
    scanner_app_active_keys: number;
  }>;
}

export interface TenantPerson {
  email: string;
  language: 'ja' | 'en';
  admin: boolean;
}

/** The company name, contact person and address of the tenant's primary contact. */
export function primaryContactOf(tenant: SettingsTenant) {
  return { companyName: tenant.name, name: '主担当 一郎', email: 'primary@settings.test', contactNumber: '03-1111-2222', postalCode: '100-0005', address: '東京都千代田区丸の内1-1' };
}

/**
 * Creates or resets the tenant (no custom subdomain, no allowlist, no enforcement, the default
 * password policy, only the primary contact, no requests) with the card app, and makes `people`
 * its members (copies of admin@acme.test or user@acme.test, without their Acme membership).
 * Returns the tenant id.
 */
export async function ensureSettingsTenant(tenant: SettingsTenant, people: TenantPerson[]): Promise<number> {
  const ids = await ensureDedicatedUsers(people.map((p) => ({ from: p.admin ? 'admin@acme.test' : 'user@acme.test', email: p.email, language: p.language })));
  const db = openServerDb();
  const now = Date.now();
  try {
    const r = await writeReturning(db, {
      sql: `INSERT INTO tenants (name, initial_subdomain, status, feature_sso_users_limit, is_feature_ip_restriction_subscribed, is_feature_twofa_enforcement_subscribed)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT (initial_subdomain) DO UPDATE SET name = ?1, subdomain = NULL, status = ?3, feature_sso_users_limit = ?4,
              is_feature_ip_restriction_subscribed = ?5, is_feature_twofa_enforcement_subscribed = ?6, is_ip_restriction_enabled = 0,
              is_twofa_enforced = 0, is_twofa_skip_allowed = 0, minimum_password_length = 8, is_mixed_case_required = 1,
              is_number_required = 1, is_special_character_required = 1, password_policy_updated_at = NULL
            RETURNING id`,
      args: [tenant.name, tenant.label, tenant.status ?? 'contracted', tenant.ssoUsersLimit ?? 0, tenant.ipRestrictionSubscribed ? 1 : 0, tenant.twofaEnforcementSubscribed ? 1 : 0],
    });
    const id = Number(r.rows[0]!.id);
    const contract = {
      trial_ends_at: null,
      contract_starts_at: now - 30 * DAY,
      contract_ends_at: now + 335 * DAY,
      contract_renews_at: now + 335 * DAY,
      feature_bulk_email_monthly_limit: 0,
      bulk_email_monthly_usage: 0,
      feature_negotiations_users_limit: 0,
      negotiations_active_accounts: 0,
      is_feature_kintone_subscribed: 0,
      feature_scanner_app_keys_limit: 0,
      scanner_app_active_keys: 0,
      ...tenant.contract,
    };
    const cols = Object.keys(contract);
    const contact = primaryContactOf(tenant);
    await db.batch(
      [
        { sql: "INSERT INTO tenant_apps (tenant_id, app, seats) VALUES (?, 'meishi', NULL) ON CONFLICT DO NOTHING", args: [id] },
        { sql: 'DELETE FROM contract_details WHERE tenant_id = ?', args: [id] },
        { sql: `INSERT INTO contract_details (tenant_id, ${cols.join(', ')}) VALUES (?, ${cols.map(() => '?').join(', ')})`, args: [id, ...Object.values(contract)] },
        { sql: 'DELETE FROM tenant_contacts WHERE tenant_id = ?', args: [id] },
        {
          sql: "INSERT INTO tenant_contacts (tenant_id, kind, company_name, name, email, contact_number, postal_code, address) VALUES (?, 'primary', ?, ?, ?, ?, ?, ?)",
          args: [id, contact.companyName, contact.name, contact.email, contact.contactNumber, contact.postalCode, contact.address],
        },
        { sql: 'DELETE FROM whitelisted_ips WHERE tenant_id = ?', args: [id] },
        { sql: 'DELETE FROM service_requests WHERE tenant_id = ?', args: [id] },
      ],
      'write',
    );
    for (const p of people) {
      const userId = ids[p.email]!;
      await db.batch(
        [
          // Only this tenant: the login lands here, and nothing of Acme is shown or changed.
          { sql: 'DELETE FROM tenant_users WHERE user_id = ? AND tenant_id <> ?', args: [userId, id] },
          {
            sql: `INSERT INTO tenant_users (tenant_id, user_id, is_admin, meishi_access_granted_at, invited_at, last_active_at, created_at, updated_at)
                  VALUES (?1, ?2, ?3, ?4, ?4, ?4, ?4, ?4)
                  ON CONFLICT (tenant_id, user_id) DO UPDATE SET is_admin = ?3, deactivated_at = NULL, operation_status = NULL`,
            args: [id, userId, p.admin ? 1 : 0, now],
          },
          { sql: 'UPDATE users SET twofa_method = NULL WHERE id = ?', args: [userId] },
          { sql: "DELETE FROM throttles WHERE key = 'verify-password:' || ?", args: [userId] },
        ],
        'write',
      );
    }
    return id;
  } finally {
    db.close();
  }
}

/** The e2e server reads the client address from X-Forwarded-For (TRUST_PROXY), so a browser context can choose its address. */
export function serverTrustsForwardedFor(): boolean {
  return (serverEnv().TRUST_PROXY ?? process.env.TRUST_PROXY) === 'x-forwarded-for';
}
