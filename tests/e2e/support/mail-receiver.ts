// A real SMTP receiver on loopback for the browser tests (DESIGN.md section 6): the Node entry
// sends with nodemailer to SMTP_URL=smtp://127.0.0.1:<port>; each message is written to a folder
// as raw RFC 5322 text, with its envelope beside it, so test workers (other processes) can read it
// (support/mail.ts). Plain SMTP on loopback, no authentication: nothing else can reach it.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

export interface Receiver {
  close(): Promise<void>;
}

export async function startMailReceiver(port: number, dir: string): Promise<Receiver> {
  mkdirSync(dir, { recursive: true });
  let seq = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 1024 * 1024,
    // At the end of the run the server's pooled connections are still open: do not wait for them.
    closeTimeout: 500,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', callback);
      stream.on('end', () => {
        // <received ms>-<sequence>: names sort by arrival; written under a temporary name and
        // renamed, so a reader never sees half a message.
        const name = `${Date.now()}-${String(++seq).padStart(5, '0')}`;
        const envelope = { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null, to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()) };
        try {
          writeFileSync(join(dir, `${name}.json.tmp`), JSON.stringify(envelope));
          writeFileSync(join(dir, `${name}.eml.tmp`), Buffer.concat(chunks));
          renameSync(join(dir, `${name}.eml.tmp`), join(dir, `${name}.eml`));
          renameSync(join(dir, `${name}.json.tmp`), join(dir, `${name}.json`));
        } catch (e) {
          // The server's queue may still be sending when the run's folder is gone (teardown):
          // refuse that message instead of crashing the run.
          return callback(e as Error);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
