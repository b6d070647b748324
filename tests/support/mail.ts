// Reads the mail and SMS the portal wrote to the outbox (the test harness's mailer and SMS sender).
import { desc, eq } from 'drizzle-orm';
import { outbox } from '../../src/db/schema';
import type { Harness } from './harness';

export async function mailsTo(h: Harness, email: string) {
  return h.deps.db.select().from(outbox).where(eq(outbox.recipient, email)).orderBy(desc(outbox.id));
}

export async function lastMail(h: Harness, email: string) {
  const [m] = await mailsTo(h, email);
  if (!m) throw new Error(`no mail to ${email}`);
  return m;
}

export function linkIn(body: string): URL {
  const m = /https?:\/\/\S+/.exec(body);
  if (!m) throw new Error(`no link in: ${body}`);
  return new URL(m[0]);
}

export function codeIn(body: string): string {
  const m = /\b(\d{6})\b/.exec(body);
  if (!m) throw new Error(`no code in: ${body}`);
  return m[1]!;
}
