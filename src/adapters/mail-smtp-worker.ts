// Workers: SMTP over cloudflare:sockets with worker-mailer (one connection per message).
import { WorkerMailer } from 'worker-mailer';
import type { Mailer } from '../deps';
import { parseAddress, parseSmtpUrl } from './smtp-url';

export function smtpMailerWorker(url: string, from: string): Mailer {
  const s = parseSmtpUrl(url);
  return {
    async send(m) {
      const mailer = await WorkerMailer.connect({
        host: s.host,
        port: s.port,
        secure: s.secure,
        startTls: !s.secure,
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
