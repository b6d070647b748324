// Node: SMTP with nodemailer (a pooled transport; STARTTLS required unless SMTP_URL says tls=off).
import nodemailer from 'nodemailer';
import type { Mailer } from '../deps';
import { parseSmtpUrl } from './smtp-url';

export function smtpMailerNode(url: string, from: string): Mailer & { close(): void } {
  const s = parseSmtpUrl(url);
  const transport = nodemailer.createTransport({
    host: s.host,
    port: s.port,
    secure: s.secure,
    requireTLS: s.requireTls,
    pool: true,
    ...(s.username ? { auth: { user: s.username, pass: s.password ?? '' } } : {}),
    // Loopback test servers have no certificate; real servers must.
    tls: { rejectUnauthorized: !['127.0.0.1', 'localhost', '::1'].includes(s.host) },
  });
  return {
    async send(m) {
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text });
    },
    /** Ends the pooled connections (shutdown, tests). */
    close: () => transport.close(),
  };
}
