// Demo data of DESIGN.md section 7. Applied by `npm start` / `npm run start:node` when the
// database has no tenant yet; every demo password is Portal-Demo-2026!.
import { count } from 'drizzle-orm';
import { packTraits, passwordScore, passwordTraits } from '../shared/account/password-strength';
import type { Db } from './client';
import {
  contractDetails,
  departments,
  tenantApps,
  tenantContacts,
  tenants,
  tenantUsers,
  twofaSecrets,
  users,
} from './schema';

export const DEMO_PASSWORD = 'Portal-Demo-2026!';
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const DAY = 86_400_000;

export async function isEmpty(db: Db): Promise<boolean> {
  const row = await db.select({ n: count() }).from(tenants).get();
  return (row?.n ?? 0) === 0;
}

/**
 * What the demo data needs from the rules (the database layer does not import them): a password
 * hasher, and the encryption of stored secrets (the demo TOTP seed) under the deployment's key.
 */
export interface SeedTools {
  passwords: { hash(password: string): Promise<string> };
  encryptSecret(plain: string): string;
}

export async function seedDemo(db: Db, { passwords, encryptSecret }: SeedTools, now: number): Promise<void> {
  const hash = await passwords.hash(DEMO_PASSWORD);
  const T = { acme: 1, globex: 2, initech: 3 };
  const U = { admin: 1, user: 2, multi: 3, totp: 4, gone: 5, initech: 6, manager: 7 };
  const D = { sales: 1, dev: 2 };
  const user = (id: number, name: string, email: string, extra: Partial<typeof users.$inferInsert> = {}) => ({
    id,
    name,
    email,
    passwordHash: hash,
    passwordChangedAt: now,
    passwordScore: passwordScore(DEMO_PASSWORD, email),
    passwordTraits: packTraits(passwordTraits(DEMO_PASSWORD)),
    emailVerifiedAt: now,
    language: 'ja' as const,
    createdAt: now,
    updatedAt: now,
    ...extra,
  });
  const member = (id: number, tenantId: number, userId: number, apps: ('meishi' | 'scheduler')[], extra: Partial<typeof tenantUsers.$inferInsert> = {}) => ({
    id,
    tenantId,
    userId,
    meishiAccessGrantedAt: apps.includes('meishi') ? now : null,
    schedulerAccessGrantedAt: apps.includes('scheduler') ? now : null,
    lastActiveAt: null,
    invitedAt: now,
    createdAt: now + id, // distinct, so "newest first" lists are stable
    updatedAt: now,
    ...extra,
  });
  const contact = (tenantId: number, companyName: string, name: string, email: string) => ({
    tenantId,
    kind: 'primary' as const,
    companyName,
    name,
    email,
    contactNumber: '03-1234-5678',
    postalCode: '100-0001',
    address: '東京都千代田区千代田1-1',
  });

  await db.batch([
    db.insert(tenants).values([
      {
        id: T.acme, name: 'Acme Corporation', initialSubdomain: 'acme', status: 'contracted', featureSsoUsersLimit: 10,
        isFeatureIpRestrictionSubscribed: true, isFeatureTwofaEnforcementSubscribed: true, createdAt: now, updatedAt: now,
      },
      { id: T.globex, name: 'Globex 株式会社', initialSubdomain: 'globex', subdomain: 'globex-jp', status: 'trial', createdAt: now, updatedAt: now },
      { id: T.initech, name: 'Initech', initialSubdomain: 'initech', status: 'trial_expired_not_yet_contracted', createdAt: now, updatedAt: now },
    ]),
    db.insert(tenantApps).values([
      { tenantId: T.acme, app: 'meishi', seats: 10 },
      { tenantId: T.acme, app: 'scheduler', seats: 5 },
      { tenantId: T.globex, app: 'meishi', seats: null },
      { tenantId: T.initech, app: 'meishi', seats: 5 },
    ]),
    db.insert(contractDetails).values([
      { tenantId: T.acme, contractStartsAt: now - 180 * DAY, contractEndsAt: now + 185 * DAY, contractRenewsAt: now + 185 * DAY },
      { tenantId: T.globex, trialEndsAt: now + 14 * DAY },
      { tenantId: T.initech, trialEndsAt: now - 3 * DAY },
    ]),
    db.insert(departments).values([
      { id: D.sales, tenantId: T.acme, name: '営業部', createdAt: now, updatedAt: now },
      { id: D.dev, tenantId: T.acme, name: '開発部', createdAt: now, updatedAt: now },
    ]),
    db.insert(users).values([
      user(U.admin, 'Acme 管理者', 'admin@acme.test'),
      user(U.user, '山田 太郎', 'user@acme.test'),
      user(U.multi, 'Multi Tenant', 'multi@example.test', { language: 'en' }),
      user(U.totp, '佐藤 花子', 'totp@acme.test', { twofaMethod: 'app' }),
      user(U.gone, '退職 済', 'gone@acme.test'),
      user(U.initech, 'Initech Admin', 'admin@initech.test', { language: 'en' }),
      user(U.manager, 'Staff Manager', 'manager@staff.test', { isTenantManager: true }),
    ]),
    db.insert(tenantUsers).values([
      member(1, T.acme, U.admin, ['meishi', 'scheduler'], { isAdmin: true, departmentId: D.sales }),
      member(2, T.acme, U.user, ['meishi'], { departmentId: D.sales }),
      member(3, T.acme, U.multi, ['meishi'], { departmentId: D.dev }),
      member(4, T.globex, U.multi, ['meishi'], { isAdmin: true }),
      member(5, T.acme, U.totp, ['meishi'], { departmentId: D.dev }),
      member(6, T.acme, U.gone, ['meishi'], { deactivatedAt: now - DAY }),
      member(7, T.initech, U.initech, ['meishi'], { isAdmin: true }),
    ]),
    db.insert(twofaSecrets).values({
      userId: U.totp,
      method: 'app',
      secretCiphertext: encryptSecret(DEMO_TOTP_SECRET),
      confirmedAt: now,
      createdAt: now,
    }),
    db.insert(tenantContacts).values([
      contact(T.acme, 'Acme Corporation', 'Acme 管理者', 'admin@acme.test'),
      contact(T.globex, 'Globex 株式会社', 'Multi Tenant', 'multi@example.test'),
      contact(T.initech, 'Initech', 'Initech Admin', 'admin@initech.test'),
    ]),
  ]);
}
