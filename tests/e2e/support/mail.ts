// Reading the mail the portal sent through the e2e SMTP receiver (support/mail-receiver.ts).
// Messages are parsed with mailparser, which decodes quoted-printable and base64 bodies and
// encoded-word subjects (Japanese text arrives encoded).
import { expect } from '@playwright/test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';

export function mailDir(): string {
  const dir = process.env.E2E_DB_DIR;
  if (!dir) throw new Error('E2E_DB_DIR is set by playwright.config.ts');
  return join(dir, 'mail');
}

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  receivedAt: number;
}

/** Every message to `address` received at or after `since` (ms since the epoch), oldest first. */
export async function mailsTo(address: string, since = 0): Promise<ReceivedMail[]> {
  const dir = mailDir();
  if (!existsSync(dir)) return [];
  const out: ReceivedMail[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    const receivedAt = Number(f.split('-')[0]);
    if (receivedAt < since) continue;
    const envelope = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { to: string[] };
    if (!envelope.to.includes(address.toLowerCase())) continue;
    const parsed = await simpleParser(readFileSync(join(dir, f.replace(/\.json$/, '.eml'))));
    out.push({ to: envelope.to, subject: parsed.subject ?? '', text: parsed.text ?? '', receivedAt });
  }
  return out;
}

/** Waits for the first message to `address` received at or after `since`. */
export async function waitForMail(address: string, since = 0, timeout = 10_000): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined;
  await expect
    .poll(async () => (found = (await mailsTo(address, since))[0]) !== undefined, { timeout, message: `a mail to ${address}` })
    .toBe(true);
  return found!;
}

/** The first link in a mail's text. */
export function linkIn(mail: ReceivedMail): URL {
  const m = /https?:\/\/\S+/.exec(mail.text);
  if (!m) throw new Error(`no link in the mail "${mail.subject}": ${mail.text}`);
  return new URL(m[0]);
}
