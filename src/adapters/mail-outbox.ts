import type { Db } from '../db/client';
import { outbox } from '../db/schema';
import type { Mailer } from '../deps';

/** Dev and test mailer: records each mail in the outbox table (shown at <base>/dev/outbox). */
export function outboxMailer(db: Db, now: () => number): Mailer {
  return {
    async send(m) {
      await db.insert(outbox).values({ channel: 'mail', tenantId: m.tenantId ?? null, recipient: m.to, subject: m.subject, body: m.text, createdAt: now() });
    },
  };
}
