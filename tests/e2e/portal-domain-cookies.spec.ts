// Cookies on the portal domain in a real browser (issue 21, decision 0035). The other journeys
// run on *.localhost, where Chromium keeps a Domain=localhost cookie to localhost alone, so the
// hand-off's browser binding is off there and the known-browser cookie cannot cross hosts. This
// journey runs a server of its own on `portal.test` (Chromium resolves it to this machine through
// --host-resolver-rules), with the binding on as in production, and checks as a person would:
// - choosing an organisation on the main domain hands the session over through the per-hand-off
//   binding cookie, which the target host receives and uses up;
// - while the account is locked for unknown browsers (failures spread over many addresses), the
//   person's own browser still signs in on a host it has never used.
import { createClient } from '@libsql/client';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-port';
import { BASE, DEMO_PASSWORD, expect, LANGUAGES, test, waitForHydration } from './fixtures';
import { loginResponse } from './support/flows';
import { serverEnv } from './support/server-env';
import { TEXT } from './support/text';

const DOMAIN = 'portal.test';
let server: ChildProcess;
let port = 0;
let dir = '';
let browser: Browser;

const at = (label: string | null) => `http://${label ? `${label}.` : ''}${DOMAIN}:${port}`;

/** A password login sent from `ip` (the server trusts X-Forwarded-For in the browser tests). */
function loginFrom(host: string, ip: string, email: string, password: string): Promise<number> {
  const body = JSON.stringify({ email, password, remember: false });
  return new Promise((resolve, reject) => {
    const r = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `${BASE}/api/v2/login`,
        headers: { host: `${host}:${port}`, origin: `http://${host}:${port}`, 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json', 'x-forwarded-for': ip, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    r.on('error', reject);
    r.end(body);
  });
}

test.beforeAll(async () => {
  port = await freePort();
  dir = mkdtempSync(join(tmpdir(), 'portal-domain-'));
  server = spawn(process.execPath, ['dist/server/node.mjs'], {
    env: {
      ...process.env,
      ...serverEnv(),
      PORT: String(port),
      LIBSQL_URL: `file:${join(dir, 'portal.db')}`,
      PORTAL_DOMAIN: DOMAIN,
      PUBLIC_URL: `http://${DOMAIN}:${port}`,
      HANDOFF_BROWSER_BINDING: 'true',
      WEB_CONCURRENCY: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the portal.test server did not start:\n${output}`)), 60_000);
    const seen = (d: Buffer) => {
      output += String(d);
      if (output.includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    server.stdout!.on('data', seen);
    server.stderr!.on('data', seen);
  });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run', `--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1, MAP *.${DOMAIN} 127.0.0.1`],
  });
});

test.afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

// Each language has its own person (the lock of one must not touch the other's journey).
const PEOPLE = {
  ja: { email: 'multi@example.test', home: 'globex-jp', choose: 'Acme Corporation', target: 'acme' },
  en: { email: 'user@acme.test', home: 'acme', choose: null, target: 'acme' },
} as const;

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test('the hand-off crosses hosts with its binding cookie, and the person\'s own browser signs in while the account is locked for others', async ({ checkA11y }) => {
      const t = TEXT[lang];
      const who = PEOPLE[lang];
      // The person's language setting wins over the browser's: make it this journey's.
      const db = createClient({ url: `file:${join(dir, 'portal.db')}`, timeout: 5000 });
      await db.batch([{ sql: 'UPDATE users SET language = ? WHERE email = ?', args: [lang, who.email] }], 'write');
      db.close();
      const context: BrowserContext = await browser.newContext({ locale });
      // This context is not the fixtures' (their console guard watches theirs): the same rule here.
      const problems: string[] = [];
      // Chromium logs that it ignores COOP on plain http outside localhost: this test's own setting.
      const coopOnHttp = /Cross-Origin-Opener-Policy header has been ignored/;
      context.on('console', (m) => m.type() === 'error' && !coopOnHttp.test(m.text()) && problems.push(`${m.page()?.url()}: ${m.text()}`));
      context.on('weberror', (e) => problems.push(`${e.page()?.url()}: ${e.error().message}`));
      try {
        const page = await context.newPage();
        // 1. The person signs in on their home tenant's host once.
        await page.goto(`${at(who.home)}${BASE}/login?continue=${encodeURIComponent(`${BASE}/my-account`)}`);
        await waitForHydration(page);
        await page.getByLabel(t.email).fill(who.email);
        await page.getByRole('button', { name: t.next, exact: true }).click();
        await page.getByLabel(t.password, { exact: true }).fill(DEMO_PASSWORD);
        const first = loginResponse(page);
        await page.getByRole('button', { name: t.logIn, exact: true }).click();
        expect((await first).status()).toBe(200);
        await expect(page).toHaveURL(`${at(who.home)}${BASE}/my-account`);
        const known = (await context.cookies(at(null))).find((c) => c.name === 'portal_known_browser');
        expect(known?.domain).toBe(`.${DOMAIN}`);
        await waitForHydration(page);
        await page.getByRole('button', { name: t.userMenu }).click();
        await page.getByRole('banner').getByRole('button', { name: t.logout }).click();
        await expect(page).toHaveURL(/\/accounts\/login/);

        // 2. Someone guesses from many addresses until the account is locked for unknown browsers.
        for (let i = 0; i < 25; i++) await loginFrom(who.home + '.' + DOMAIN, `198.51.100.${i + 1}`, who.email, 'a wrong guess');
        expect(await loginFrom(DOMAIN, '192.0.2.200', who.email, DEMO_PASSWORD)).toBe(429);

        // 3. The person, in their own browser, on the main domain (never used before): signed in.
        await page.goto(`${at(null)}${BASE}/login?continue=${encodeURIComponent(`${BASE}/my-account`)}`);
        await waitForHydration(page);
        await checkA11y(page, 'login on the main domain of portal.test');
        await page.getByLabel(t.email).fill(who.email);
        await page.getByLabel(t.password, { exact: true }).fill(DEMO_PASSWORD);
        const again = loginResponse(page);
        await page.getByRole('button', { name: t.logIn, exact: true }).click();
        expect((await again).status()).toBe(200);

        // 4. The organisation (chosen, or the only one): a hand-off with the binding on.
        if (who.choose) {
          const chooser = page.getByRole('dialog', { name: t.chooseOrganization });
          await expect(chooser).toBeVisible();
          await checkA11y(page, 'organisation chooser on portal.test');
          await chooser.getByRole('button', { name: who.choose }).click();
        }
        await expect(page).toHaveURL(`${at(who.target)}${BASE}/my-account`);
        await waitForHydration(page);
        await expect(page.getByTestId('signed-in-as')).toContainText(who.email);
        await checkA11y(page, 'my-account after the hand-off on portal.test');
        // The binding cookie was made for that hand-off and is gone with it.
        const left = (await context.cookies(at(who.target))).filter((c) => c.name.startsWith('portal_handoff'));
        expect(left).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
}
