// Workers: SMTP over cloudflare:sockets with worker-mailer (one connection per message).
import { WorkerMailer } from 'worker-mailer';
import type { Mailer } from '../deps';
import { parseAddress, parseSmtpUrl } from './smtp-url';

export function smtpMailerWorker(url: string, from: string): Mailer {
  const s = parseSmtpUrl(url);
  // worker-mailer upgrades with STARTTLS only when the server offers it and goes on in plain text
  // otherwise, so it cannot require it: on Workers TLS means smtps:// (TLS from the first byte).
  if (s.requireTls) throw new Error('SMTP_URL: on Workers use smtps://host:465 (STARTTLS cannot be required here), or smtp://…?tls=off for a local receiver');
  return {
    async send(m) {
      const mailer = await WorkerMailer.connect({
        host: s.host,
        port: s.port,
        secure: s.secure,
        // tls=off: an explicit plain-text receiver; never an opportunistic upgrade we cannot verify.
        startTls: false,
        ...(s.username ? { credentials: { username: s.username, password: s.password ?? '' }, authType: ['plain', 'login'] } : {}),
      });
      try {
        await mailer.send({ from: parseAddress(from), to: m.to, subject: m.subject, text: m.text });
      } finally {
        await mailer.close();
      }
    },
  };
}
