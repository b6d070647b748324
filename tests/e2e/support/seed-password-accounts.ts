// Writes the password journeys' accounts (support/password-accounts.ts) into the e2e database
// and sends the mail the journeys start from (invitation, email verification) through the
// server's own domain functions and SMTP mailer, so it arrives at the e2e SMTP receiver like any
// mail the portal sends. Run by global-setup.ts with tsx, in the server's environment.
import { eq } from 'drizzle-orm';
import { tenants, tenantUsers, users } from '../../../src/db/schema';
import { sendInvitation, sendVerificationMail } from '../../../src/domain/account/registration';
import { buildNodeDeps } from '../../../src/entry/node';
import { ACCOUNT_SPECS, passwordAccount, WEAK_PASSWORD } from './password-accounts';

const deps = await buildNodeDeps(process.env);
try {
  const { db, clock, passwords } = deps;
  const now = clock.now();
  const acme = await db.select().from(tenants).where(eq(tenants.initialSubdomain, 'acme')).get();
  const demo = await db.select().from(users).where(eq(users.email, 'admin@acme.test')).get();
  if (!acme || !demo) throw new Error('the demo data is missing: was the database seeded?');
  const weakHash = await passwords.hash(WEAK_PASSWORD);
  for (const spec of ACCOUNT_SPECS) {
    for (const lang of ['ja', 'en'] as const) {
      const [user] = await db
        .insert(users)
        .values({
          name: spec.name[lang],
          email: passwordAccount(spec.kind, lang),
          passwordHash: spec.password === 'demo' ? demo.passwordHash : spec.password === 'weak' ? weakHash : null,
          passwordChangedAt: spec.password ? now : null,
          emailVerifiedAt: spec.verified ? now : null,
          language: lang,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await db.insert(tenantUsers).values({
        tenantId: acme.id,
        userId: user!.id,
        meishiAccessGrantedAt: spec.apps.includes('meishi') ? now : null,
        schedulerAccessGrantedAt: spec.apps.includes('scheduler') ? now : null,
        invitedAt: now,
        createdAt: now,
        updatedAt: now,
      });
      if (spec.mail === 'invitation') await sendInvitation(deps, user!, acme);
      if (spec.mail === 'verification') await sendVerificationMail(deps, user!, acme);
    }
  }
} finally {
  deps.close();
}
// The SMTP mailer pools its connections (and has no close in the Mailer port): every message was
// accepted above, so end now rather than when the receiver drops the idle connection.
process.exit(0);
