// One passkey across tenants (issue 24, decision 0039). The e2e server's PORTAL_DOMAIN is
// `localhost`, which Chromium refuses as the RP ID of acme.localhost; with a domain that has a dot,
// `portal.localhost` (*.localhost resolves to loopback in Chromium), the RP ID is the same on every
// tenant host and the main domain. So this file starts a portal of its own with that domain, its
// own port and a fresh database (the Node entry migrates and seeds it, DEV_MODE), and stops it at
// the end. It runs in the "exclusive" project: alone, so the second server does not load the busy
// machine while other journeys run.
//
// In both languages, with Chromium's virtual authenticator: multi@example.test (a member of Acme and
// Globex) signs in with the password on acme.portal.localhost, adds a passkey in my account and logs
// out; then signs in on Globex's host with "Sign in with a passkey", typing nothing; then on the main
// domain through the email field's autofill. axe on the screens visited.
import { createClient } from '@libsql/client';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE, DEMO_PASSWORD, expect, gotoHydrated, LANGUAGES, test, waitForHydration } from './fixtures';
import { enterEmailOnTenantHost, submitPassword } from './support/flows';
import { addPasskey, PASSKEYS, virtualAuthenticator } from './support/passkeys';
import { serverEnv } from './support/server-env';
import { TEXT } from './support/text';

const DOMAIN = 'portal.localhost';
const EMAIL = 'multi@example.test';

let server: ChildProcess | undefined;
let dir = '';
let port = 0;
const at = (label: string | null) => `http://${label ? `${label}.` : ''}${DOMAIN}:${port}`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

async function waitReady(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  let last = '';
  while (Date.now() < until) {
    if (server?.exitCode !== null && server?.exitCode !== undefined) throw new Error(`the portal exited (${server.exitCode}): ${last}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
      last = `HTTP ${r.status}`;
    } catch (e) {
      last = String(e);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} not ready: ${last}`);
}

/** The demo user's language setting (signed-in screens follow it) and no passkeys yet. */
async function prepareUser(lang: 'ja' | 'en'): Promise<void> {
  const db = createClient({ url: `file:${join(dir, 'portal.db')}`, timeout: 5000 });
  try {
    await db.batch(
      [
        { sql: 'UPDATE users SET language = ? WHERE email = ?', args: [lang, EMAIL] },
        { sql: 'DELETE FROM passkeys WHERE user_id = (SELECT id FROM users WHERE email = ?)', args: [EMAIL] },
      ],
      'write',
    );
  } finally {
    db.close();
  }
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = mkdtempSync(join(tmpdir(), 'portal-e2e-one-domain-'));
  port = await freePort();
  server = spawn(process.execPath, ['dist/server/node.mjs'], {
    env: {
      ...process.env,
      ...serverEnv(),
      LIBSQL_URL: `file:${join(dir, 'portal.db')}`,
      PORT: String(port),
      PORTAL_DOMAIN: DOMAIN,
      PUBLIC_URL: `http://${DOMAIN}:${port}`,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  server.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + String(c)).slice(-4000);
  });
  try {
    await waitReady(`http://127.0.0.1:${port}/readyz`, 90_000);
  } catch (e) {
    throw new Error(`${String(e)}\n${stderr}`);
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (server.exitCode === null) server.kill('SIGKILL');
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });

    test('one passkey signs in on Acme, on Globex and on the main domain', async ({ page, context, checkA11y }) => {
      const t = TEXT[lang];
      const x = PASSKEYS[lang];
      await prepareUser(lang);
      await virtualAuthenticator(page);
      // Until the passkey exists the email field's autofill has nothing to offer, and a pending
      // conditional request would only wait: this browser offers none while the password is typed.
      await page.addInitScript(() => {
        if (!sessionStorage.getItem('autofill')) PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
      });

      // Acme: the password, then my account's passkeys screen, where one is added.
      await gotoHydrated(page, `${at('acme')}${BASE}/login`);
      await checkA11y(page, 'acme login on portal.localhost');
      await enterEmailOnTenantHost(page, t, EMAIL);
      await submitPassword(page, t, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${at('acme')}/meishi/`);
      await gotoHydrated(page, `${at('acme')}${BASE}/passkeys`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.heading);
      await addPasskey(page, x, checkA11y);
      await checkA11y(page, 'passkeys on acme, one added');

      // Log out from the user menu.
      await page.getByRole('button', { name: t.userMenu }).click();
      await page.getByRole('banner').getByRole('button', { name: t.logout }).click();
      await expect(page).toHaveURL(`${at('acme')}${BASE}/login`);

      // Globex's host: the button, nothing typed; the same passkey (same RP ID) answers.
      await gotoHydrated(page, `${at('globex-jp')}${BASE}/login`);
      const button = page.getByRole('button', { name: x.signIn, exact: true });
      await expect(button).toBeVisible();
      await checkA11y(page, 'globex login on portal.localhost');
      await button.click();
      await expect(page).toHaveURL(`${at('globex-jp')}/meishi/`);

      // The main domain, signed out: the email field's autofill (conditional mediation) offers the
      // passkey and the virtual authenticator answers the pending request as a person picking it
      // would; the organization chooser follows (a member of two tenants).
      await context.clearCookies();
      await page.goto(`${at(null)}${BASE}/login`);
      await page.evaluate(() => sessionStorage.setItem('autofill', 'on'));
      await page.goto(`${at(null)}${BASE}/login`);
      const chooser = page.getByRole('dialog', { name: t.chooseOrganization });
      await expect(chooser).toBeVisible();
      await waitForHydration(page);
      await checkA11y(page, 'organization chooser after the autofill passkey');
      await chooser.getByRole('button', { name: 'Acme' }).click();
      await expect(page).toHaveURL(`${at('acme')}/meishi/`);
    });
  });
}
