// Mail the server layers sent to the loopback receiver (smtp-receiver.ts), decoded: each runtime's
// mailer picks its own transfer encoding (quoted-printable, base64), so tests read the parsed text.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
}

/** The first message to `recipient` whose file is not in `before`, waiting up to 5 s for it. */
export async function waitForMail(mailDir: string, recipient: string, before: Set<string>): Promise<ReceivedMail> {
  for (let i = 0; i < 50; i++) {
    const file = readdirSync(mailDir).find((f) => !before.has(f) && f.endsWith(`${recipient}.eml`));
    if (file) {
      const mail = await simpleParser(readFileSync(join(mailDir, file)));
      const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? '');
      return { to, subject: mail.subject ?? '', text: mail.text ?? '' };
    }
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`no mail to ${recipient} arrived in ${mailDir}`);
}
