// A tenant of its own for the SSO journey in each language (so no other journey sees SSO on):
// subscribed to SSO, with a password admin and an SSO member, reset to "SSO not configured" so a
// retried test starts clean. Written into the server's database like admin-tenants.ts.
import { createClient } from '@libsql/client';
import { join } from 'node:path';
import { ensureSettingsTenant } from './admin-tenants';

export interface SsoTenant {
  label: string;
  name: string;
  admin: string;
  member: string;
}

export function ssoTenant(lang: 'ja' | 'en'): SsoTenant {
  return { label: `sso-${lang}`, name: `SSO Tenant ${lang}`, admin: `sso-admin+${lang}@acme.test`, member: `sso-member+${lang}@acme.test` };
}

export async function ensureSsoTenant(t: SsoTenant, lang: 'ja' | 'en'): Promise<void> {
  const id = await ensureSettingsTenant({ label: t.label, name: t.name, ssoUsersLimit: 5 }, [
    { email: t.admin, language: lang, admin: true },
    { email: t.member, language: lang, admin: false },
  ]);
  const dir = process.env.E2E_DB_DIR;
  if (!dir) throw new Error('E2E_DB_DIR is set by playwright.config.ts');
  const db = createClient({ url: `file:${join(dir, 'portal.db')}`, timeout: 5000 });
  try {
    await db.batch(
      [
        { sql: 'DELETE FROM saml_settings WHERE tenant_id = ?', args: [id] },
        { sql: 'UPDATE tenants SET is_sso_enabled = 0, sso_certificate_expires_at = NULL WHERE id = ?', args: [id] },
        { sql: 'DELETE FROM saml_certificate_warnings WHERE tenant_id = ?', args: [id] },
        { sql: 'DELETE FROM sessions WHERE tenant_id = ?', args: [id] },
        // The per-user SSO switch (the users screens are another issue's): on for the member only.
        { sql: 'UPDATE tenant_users SET is_sso_enabled = (user_id = (SELECT id FROM users WHERE email = ?)) WHERE tenant_id = ?', args: [t.member, id] },
      ],
      'write',
    );
  } finally {
    db.close();
  }
}

/** Every member of the tenant on SSO (the "all" status at startup). */
export async function setSsoForAll(t: SsoTenant): Promise<void> {
  const dir = process.env.E2E_DB_DIR;
  if (!dir) throw new Error('E2E_DB_DIR is set by playwright.config.ts');
  const db = createClient({ url: `file:${join(dir, 'portal.db')}`, timeout: 5000 });
  try {
    await db.execute({ sql: 'UPDATE tenant_users SET is_sso_enabled = 1 WHERE tenant_id = (SELECT id FROM tenants WHERE initial_subdomain = ?)', args: [t.label] });
  } finally {
    db.close();
  }
}
