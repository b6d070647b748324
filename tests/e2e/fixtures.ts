// Browser-test fixtures (DESIGN.md sections 8 and 9):
// - every test fails on an unexpected console error or uncaught page error;
// - `checkA11y(page)` runs axe (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA) and requires zero violations
//   (with JavaScript off, on the page's document replayed where axe can run: see below);
// - `lang` follows the context's locale (Accept-Language), Japanese unless a test asks for English;
// - `account(email)` gives a demo account whose language setting matches `lang`;
// - `db` reaches the server's libSQL file, for the tests of the "exclusive" project only (see
//   playwright.config.ts: nothing may touch the database while other tests use the server).
import { createClient, type Client } from '@libsql/client';
import { expect, test as base, type Browser, type BrowserContext, type ConsoleMessage, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { AxeResults } from 'axe-core';
import { accountFor } from './support/accounts';

export { expect };

export type Lang = 'ja' | 'en';

const PORT = process.env.E2E_PORT;
const DB_DIR = process.env.E2E_DB_DIR;
if (!PORT || !DB_DIR) throw new Error('E2E_PORT and E2E_DB_DIR are set by playwright.config.ts');

export const BASE = '/accounts';
/** Project whose tests run alone, after all others, and may write to the database. */
export const EXCLUSIVE_PROJECT = 'exclusive';
export const DEMO_PASSWORD = 'Portal-Demo-2026!';
/** App paths the dev-mode Node entry serves stand-in pages at. */
const STAND_IN_PATHS = ['/meishi/', '/scheduler/', '/operator/'];

/** Origin of a host label on the dev portal domain: origin('acme'), origin(null) for the main domain. */
export function origin(label: string | null): string {
  return `http://${label ? `${label}.` : ''}localhost:${PORT}`;
}

/** Waits until every island on the page has hydrated (typing before that would be lost). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLElement>('[data-island]')].every((el) => el.dataset.hydrated === 'true'),
  );
}

export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await waitForHydration(page);
}

// ---------------------------------------------------------------------------------------------
// Console guard

/** A console error a test expects: a failed resource load with this path and status. */
export interface ExpectedResourceError {
  /** Path (without query) of the resource, e.g. "/accounts/api/v2/login". */
  path: string;
  status: number;
  /** Only on pages whose path is one of these (any page when absent). */
  pagePaths?: string[];
}

export interface ConsoleGuard {
  /** Declares a failed resource load the test provokes on purpose (a 4xx the UI handles). */
  allowResourceError(expected: ExpectedResourceError): void;
}

/**
 * Clearly benign by default: the dev app stand-in asks GET /accounts/api/user, which answers 401
 * when nobody is signed in on that host (that is what the page is there to show).
 */
const DEFAULT_ALLOWED: ExpectedResourceError[] = [{ path: `${BASE}/api/user`, status: 401, pagePaths: STAND_IN_PATHS }];

const RESOURCE_ERROR = /^Failed to load resource: the server responded with a status of (\d{3})\b/;

function isAllowed(msg: ConsoleMessage, allowed: ExpectedResourceError[]): boolean {
  const m = RESOURCE_ERROR.exec(msg.text());
  if (!m) return false;
  const status = Number(m[1]);
  let resourcePath: string;
  let pagePath: string | null = null;
  try {
    resourcePath = new URL(msg.location().url).pathname;
    const pageUrl = msg.page()?.url();
    if (pageUrl) pagePath = new URL(pageUrl).pathname;
  } catch {
    return false;
  }
  return allowed.some(
    (a) => a.status === status && a.path === resourcePath && (!a.pagePaths || (pagePath !== null && a.pagePaths.includes(pagePath))),
  );
}

// ---------------------------------------------------------------------------------------------
// Profile (E2E_PROFILE=<file>): one JSON line per axe check and per sign-in POST, to see where the
// browser layer's time goes (docs/TESTING.md). Off by default.

const PROFILE = process.env.E2E_PROFILE;
let profiledTest = '';
function profile(entry: Record<string, unknown>): void {
  if (PROFILE) appendFileSync(PROFILE, `${JSON.stringify({ test: profiledTest, ...entry })}\n`);
}

// ---------------------------------------------------------------------------------------------
// Accessibility

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
// axe-core itself (the version @axe-core/playwright would inject), put into the page once per document.
const fromAxeBuilder = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
const AXE_SOURCE = readFileSync(fromAxeBuilder.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's own run in the page: the same engine, rules and tags as @axe-core/playwright's
 * AxeBuilder in legacy mode, without its costs per check. AxeBuilder evaluated the 580 kB script
 * twice and configured it on every check, and returned every passing node too; here the script
 * goes in once per document and only violations are gathered (`resultTypes`: passes and
 * incomplete keep one node each, violations all of theirs). About 0.1 to 0.3 s less a check in the
 * journeys (docs/TESTING.md).
 */
async function axeViolations(page: Page): Promise<AxeResults['violations']> {
  // The portal's pages have no frames; AxeBuilder's frame-by-frame merge would be needed for one.
  if (page.frames().length > 1) throw new Error(`checkA11y: ${page.url()} has frames, which this check does not look into`);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async (tags) => {
      const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
      const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      return results.violations;
    },
    AXE_TAGS,
  );
}

async function runAxe(page: Page, label?: string): Promise<void> {
  const started = Date.now();
  // Checked as the user sees it: the style sheet applied (a page checked right after a navigation
  // could otherwise be measured unstyled, e.g. touch targets without their padding).
  await page.waitForLoadState('load');
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every((l) => l.sheet !== null && l.sheet.cssRules.length > 0),
  );
  const violations = await axeViolations(page);
  const lang = await page.evaluate(() => document.documentElement.lang);
  const where = `${label ? `${label} ` : ''}${page.url()} (lang=${lang})`;
  const readable = violations.map((v) =>
    [
      `${v.id} [${v.impact ?? 'n/a'}] ${v.help} (${v.helpUrl})`,
      ...v.nodes.map((n) => `    at ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s*\n\s*/g, ' | ')}`),
    ].join('\n'),
  );
  if (PROFILE) {
    const html = await page.evaluate(() => document.documentElement.outerHTML);
    const view = page.viewportSize();
    const hash = createHash('sha256').update(`${view?.width}x${view?.height} ${html}`).digest('hex').slice(0, 16);
    profile({ kind: 'axe', url: page.url(), hash, ms: Date.now() - started });
  }
  expect(readable, `axe found accessibility violations on ${where}:\n${readable.join('\n')}`).toEqual([]);
}

/**
 * axe for a context with JavaScript off. axe is a script, and such a page runs none (Playwright's
 * evaluate waits for ever), so each page's last document, as the server sent it, is replayed at the
 * same address in a context with JavaScript on where the portal's own scripts are refused: the
 * same markup, styles and language, nothing hydrated, as a browser without JavaScript shows it.
 */
function noScriptAxe(context: BrowserContext, browser: Browser, locale: string | undefined) {
  const documents = new WeakMap<Page, { url: string; html: Promise<string | null> }>();
  context.on('response', (r) => {
    const frame = r.request().frame();
    if (!r.request().isNavigationRequest() || frame !== frame.page().mainFrame() || (r.status() >= 300 && r.status() < 400)) return;
    // Read at once (a later navigation would drop the body); a failure shows when the page is checked.
    documents.set(frame.page(), { url: r.url(), html: r.text().catch(() => null) });
  });
  return async (page: Page, label?: string) => {
    const doc = documents.get(page);
    if (!doc || doc.url !== page.url()) throw new Error(`checkA11y: no document of ${page.url()} to check`);
    const html = await doc.html;
    if (html === null) throw new Error(`checkA11y: the document of ${page.url()} could not be read`);
    const replay = await browser.newContext({ locale, javaScriptEnabled: true });
    try {
      await replay.route('**/*', (route) => {
        const req = route.request();
        if (req.resourceType() === 'document' && req.url() === doc.url) return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
        if (req.resourceType() === 'script') return route.abort();
        return route.continue();
      });
      const copy = await replay.newPage();
      await copy.goto(doc.url);
      await runAxe(copy, label ? `${label} (JavaScript off)` : 'JavaScript off');
    } finally {
      await replay.close();
    }
  };
}

// ---------------------------------------------------------------------------------------------
// Fixtures

interface Fixtures {
  lang: Lang;
  consoleGuard: ConsoleGuard;
  checkA11y: (page: Page, label?: string) => Promise<void>;
  /** The demo account to sign in as, in this test's language (support/accounts.ts). */
  account: (demoEmail: string) => string;
}

interface WorkerFixtures {
  db: Client;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  lang: async ({ locale }, use) => {
    await use(locale?.toLowerCase().startsWith('en') ? 'en' : 'ja');
  },

  db: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern
    async ({}, use, workerInfo) => {
      if (workerInfo.project.name !== EXCLUSIVE_PROJECT) {
        throw new Error(`the db fixture is for tests of the "${EXCLUSIVE_PROJECT}" project only (playwright.config.ts)`);
      }
      const db = createClient({ url: `file:${join(DB_DIR, 'portal.db')}`, timeout: 5000 });
      await use(db);
      db.close();
    },
    { scope: 'worker' },
  ],

  consoleGuard: [
    async ({ context }, use, testInfo) => {
      if (PROFILE) {
        profiledTest = `${testInfo.file.split('/').pop()} > ${testInfo.titlePath.slice(1).join(' > ')}`;
        context.on('request', (r) => {
          if (r.method() === 'POST' && /\/api\/v2\/login$|\/login$/.test(new URL(r.url()).pathname)) profile({ kind: 'login', url: r.url() });
        });
      }
      const allowed = [...DEFAULT_ALLOWED];
      const problems: string[] = [];
      context.on('console', (msg) => {
        if (msg.type() !== 'error' || isAllowed(msg, allowed)) return;
        problems.push(`console.error on ${msg.page()?.url() ?? '?'}: ${msg.text()} (${msg.location().url})`);
      });
      context.on('weberror', (err) => {
        problems.push(`uncaught error on ${err.page()?.url() ?? '?'}: ${err.error().stack ?? err.error().message}`);
      });
      await use({ allowResourceError: (e) => allowed.push(e) });
      if (problems.length === 0) return;
      // A test that already failed keeps its own error; the browser's are attached to it.
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('browser-errors', { body: problems.join('\n'), contentType: 'text/plain' });
        return;
      }
      throw new Error(`Unexpected browser errors:\n${problems.join('\n')}`);
    },
    { auto: true },
  ],

  checkA11y: async ({ javaScriptEnabled, context, browser, locale }, use) => {
    await use(javaScriptEnabled === false ? noScriptAxe(context, browser, locale) : runAxe);
  },

  account: async ({ lang }, use) => {
    await use((email) => accountFor(email, lang));
  },
});

/** The two interface languages, with the Accept-Language the browser context sends for each. */
export const LANGUAGES: { lang: Lang; locale: string }[] = [
  { lang: 'ja', locale: 'ja-JP' },
  { lang: 'en', locale: 'en-US' },
];
