// The ports each entry fills in (composition root per runtime). Nothing here knows which
// runtime it runs on.
import type { Config } from './config';
import type { Db } from './db/client';
import type { PasswordHasher } from './domain/auth/passwords';

export interface Geo {
  countryCode: string | null;
  country: string | null;
  city: string | null;
  state: string | null;
}

export interface RuntimePort {
  /** The client address the runtime trusts (CF-Connecting-IP on Workers, socket or proxy on Node). */
  clientIp(req: Request, env: unknown): string | null;
  /** Whether the public URL is https (behind a trusted proxy on Node). */
  isHttps(req: Request): boolean;
  geo(req: Request): Geo | null;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  tenantId?: number | null;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

export interface OutgoingSms {
  /** E.164, e.g. +819012345678 */
  to: string;
  body: string;
  tenantId?: number | null;
}

export interface SmsSender {
  send(sms: OutgoingSms): Promise<void>;
}

export interface Deps {
  db: Db;
  config: Config;
  clock: { now(): number };
  passwords: PasswordHasher;
  mailer: Mailer;
  sms: SmsSender;
  runtime: RuntimePort;
}
