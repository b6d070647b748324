import type { Config } from '../config';
import type { Db } from '../db/client';
import type { SmsSender } from '../deps';
import { httpSms } from './sms-http';
import { outboxSms, unavailableSms } from './sms-outbox';

/** The provider when configured; the dev outbox in dev mode; otherwise SMS is unavailable. */
export function smsSender(config: Config, db: Db, now: () => number): SmsSender {
  if (config.SMS_API_URL) return httpSms({ url: config.SMS_API_URL, user: config.SMS_API_USER, token: config.SMS_API_TOKEN, from: config.SMS_FROM });
  return config.DEV_MODE ? outboxSms(db, now) : unavailableSms;
}
