// A real SMTP receiver on loopback for the server layers (workerd, Deno): each message the server
// sends is written to `mailDir` as one .eml file named after its recipients.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/** A real SMTP receiver on loopback: the worker sends over cloudflare:sockets (worker-mailer). */
export function startSmtp(mailDir: string): Promise<{ port: number; close: () => Promise<void> }> {
  const server = new SMTPServer({
    // worker-mailer refuses a server that offers AUTH when it has no credentials to give.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(',');
        writeFileSync(join(mailDir, `${Date.now()}-${Math.random().toString(36).slice(2)}-${to}.eml`), Buffer.concat(chunks));
        done();
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      // A client's connection dropped (workerd stopped at the end of the layer while its mailer
      // still had one open) is no failure; without a listener it crashed the run after the tests.
      server.removeListener('error', reject);
      server.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code !== 'ECONNRESET') console.error(`smtp receiver: ${e.message}`);
      });
      const { port } = server.server.address() as { port: number };
      resolve({ port, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

