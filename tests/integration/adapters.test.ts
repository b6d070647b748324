// The outside-world adapters against real local peers: an SMTP receiver and an HTTP SMS API.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import { smtpMailerNode } from '../../src/adapters/mail-smtp-node';
import { httpSms } from '../../src/adapters/sms-http';
import { parseAddress, parseSmtpUrl } from '../../src/adapters/smtp-url';

describe('SMTP (nodemailer) to a real SMTP receiver on loopback', () => {
  it('delivers a Japanese plain-text message with its envelope and credentials', async () => {
    const received: { from?: string; to: string[]; raw: string; user?: string }[] = [];
    const server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      authOptional: false,
      allowInsecureAuth: true, // loopback test peer without TLS
      onAuth(auth, _session, cb) {
        cb(null, { user: auth.username });
      },
      onData(stream, session, cb) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString()));
        stream.on('end', () => {
          received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined, to: session.envelope.rcptTo.map((r) => r.address), raw, user: session.user as string });
          cb();
        });
      },
      logger: false,
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.server.address() as AddressInfo).port;
    try {
      const mailer = smtpMailerNode(`smtp://portal:s3cret@127.0.0.1:${port}?tls=off`, 'Portal <no-reply@portal.test>');
      await mailer.send({ to: 'user@acme.test', subject: '【Nexta Meishi】パスワード再設定', text: 'こんにちは\nhttps://acme.localhost:8787/accounts/reset?token=abc' });
      mailer.close();
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ from: 'no-reply@portal.test', to: ['user@acme.test'], user: 'portal' });
      expect(received[0]!.raw).toMatch(/^Subject: =\?UTF-8\?/m);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('refuses to send credentials or mail to a server that does not offer STARTTLS, unless the URL says tls=off', async () => {
    const received: string[] = [];
    const auths: string[] = [];
    const server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      onAuth(auth, _session, cb) {
        auths.push(auth.username ?? '');
        cb(null, { user: auth.username });
      },
      onData(stream, _session, cb) {
        stream.on('data', () => {});
        stream.on('end', () => {
          received.push('mail');
          cb();
        });
      },
      logger: false,
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.server.address() as AddressInfo).port;
    try {
      const strict = smtpMailerNode(`smtp://portal:s3cret@127.0.0.1:${port}`, 'Portal <no-reply@portal.test>');
      await expect(strict.send({ to: 'user@acme.test', subject: 's', text: 't' })).rejects.toThrow();
      strict.close();
      expect(auths).toEqual([]);
      expect(received).toEqual([]);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('parses SMTP_URL and sender addresses', () => {
    expect(parseSmtpUrl('smtps://u%40x:p%3Aw@mail.example.com')).toEqual({ host: 'mail.example.com', port: 465, secure: true, requireTls: false, username: 'u@x', password: 'p:w' });
    expect(parseSmtpUrl('smtp://mail.example.com')).toEqual({ host: 'mail.example.com', port: 587, secure: false, requireTls: true });
    expect(parseSmtpUrl('smtp://127.0.0.1:2525?tls=off')).toEqual({ host: '127.0.0.1', port: 2525, secure: false, requireTls: false });
    expect(() => parseSmtpUrl('smtp://mail.example.com?tls=maybe')).toThrow();
    expect(() => parseSmtpUrl('http://x')).toThrow();
    expect(parseAddress('Portal <no-reply@x.test>')).toEqual({ name: 'Portal', email: 'no-reply@x.test' });
    expect(parseAddress('no-reply@x.test')).toEqual({ email: 'no-reply@x.test' });
  });
});

describe('SMS over a Twilio-style HTTP API', () => {
  it('posts To, From and Body form-encoded with basic auth, and fails on a provider error', async () => {
    const calls: { auth?: string; type?: string; body: URLSearchParams }[] = [];
    let status = 201;
    const server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        calls.push({ auth: req.headers.authorization, type: req.headers['content-type'], body: new URLSearchParams(body) });
        res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/2010-04-01/Accounts/AC123/Messages.json`;
    try {
      const sms = httpSms({ url, user: 'AC123', token: 'tok', from: '+15005550006' });
      await sms.send({ to: '+819012345678', body: '認証コード: 123456' });
      expect(calls[0]!.auth).toBe(`Basic ${Buffer.from('AC123:tok').toString('base64')}`);
      expect(calls[0]!.type).toBe('application/x-www-form-urlencoded');
      expect(Object.fromEntries(calls[0]!.body)).toEqual({ To: '+819012345678', From: '+15005550006', Body: '認証コード: 123456' });
      status = 400;
      await expect(sms.send({ to: '+819012345678', body: 'x' })).rejects.toThrow(/400/);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
