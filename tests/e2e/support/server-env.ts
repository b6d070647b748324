// The environment of the e2e server (playwright.config.ts webServer), shared with the global
// setup's seed script so both use the same database, SMTP receiver and public URL.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function serverEnv(): Record<string, string> {
  const { E2E_PORT: port, E2E_SMTP_PORT: smtpPort, E2E_DB_DIR: dir } = process.env;
  if (!port || !smtpPort || !dir) throw new Error('E2E_PORT, E2E_SMTP_PORT and E2E_DB_DIR are set by playwright.config.ts');
  return {
    LIBSQL_URL: `file:${join(dir, 'portal.db')}`,
    PORT: port,
    HOST: '127.0.0.1',
    DEV_MODE: 'true',
    PORTAL_DOMAIN: 'localhost',
    BASE_PATH: '/accounts',
    // The receiver of tests/e2e/support/mail-receiver.ts (started by the global setup).
    // A plain-text receiver on this machine: the explicit opt-out of the required TLS.
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}?tls=off`,
    MAIL_FROM: 'Portal <no-reply@localhost>',
    // Links in mail point at this server (link signatures cover the origin they are opened on).
    PUBLIC_URL: `http://localhost:${port}`,
    // Test-only trusted proxy header: a browser context chooses its client address with
    // X-Forwarded-For (new networks for the additional challenge, addresses for the allowlist).
    TRUST_PROXY: 'x-forwarded-for',
    // A user deletion always answers 202 and runs in the background, so the people journey sees
    // the "deleting" chip and then watches it go (otherwise a small deletion answers 204 at once).
    USER_DELETE_WAIT_MS: '0',
    // Chromium keeps a Domain=localhost cookie to localhost alone (no registrable domain), so the
    // hand-off browser binding cannot work across *.localhost hosts (decision 0026).
    HANDOFF_BROWSER_BINDING: 'false',
    // The journeys' helpers change tenants straight in the database file, as another process
    // would; the server then must not answer a signed-out page from its host cache (whose lifetime
    // is covered by tests/integration/request-auth.test.ts).
    HOST_CACHE_SECONDS: '0',
    // The https test IdP on loopback (decision 0042): its metadata URL is let through (honoured
    // only with DEV_MODE), and its self-signed certificate is trusted by the server process.
    DEV_SSO_METADATA_LOOPBACK: 'true',
    NODE_EXTRA_CA_CERTS: fileURLToPath(new URL('../../support/tls/loopback-cert.pem', import.meta.url)),
  };
}
