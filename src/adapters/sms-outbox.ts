import type { Db } from '../db/client';
import { outbox } from '../db/schema';
import type { SmsSender } from '../deps';

/** Dev and test SMS: recorded in the outbox table (shown at <base>/dev/outbox). */
export function outboxSms(db: Db, now: () => number): SmsSender {
  return {
    async send(m) {
      await db.insert(outbox).values({ channel: 'sms', tenantId: m.tenantId ?? null, recipient: m.to, subject: null, body: m.body, createdAt: now() });
    },
  };
}

/** Production without an SMS provider: SMS two-factor is unavailable (the send fails cleanly). */
export const unavailableSms: SmsSender = {
  async send() {
    throw new Error('no SMS provider configured (SMS_API_URL)');
  },
};
