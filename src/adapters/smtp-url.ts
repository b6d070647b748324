// SMTP_URL: smtps://user:pass@host:465 (TLS from the start) or smtp://user:pass@host:587
// (STARTTLS, required: a server that does not offer it gets no credentials and no mail).
// `?tls=off` on an smtp:// URL is the explicit opt-out, for a receiver on this machine.
export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  /** STARTTLS must succeed before anything else is sent (smtp:// without tls=off). */
  requireTls: boolean;
  username?: string;
  password?: string;
}

export function parseSmtpUrl(url: string): SmtpSettings {
  const u = new URL(url);
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:') throw new Error('SMTP_URL must start with smtp:// or smtps://');
  const secure = u.protocol === 'smtps:';
  const tls = u.searchParams.get('tls');
  if (tls !== null && tls !== 'off') throw new Error('SMTP_URL: the only tls option is tls=off');
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    requireTls: !secure && tls !== 'off',
    ...(u.username ? { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) } : {}),
  };
}

/** "Name <addr>" -> parts, for clients that want them separately. */
export function parseAddress(from: string): { name?: string; email: string } {
  const m = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(from);
  return m ? { name: m[1] || undefined, email: m[2]! } : { email: from.trim() };
}
