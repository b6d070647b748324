// Browser-test fixtures (DESIGN.md sections 8 and 9):
// - every test fails on an unexpected console error or uncaught page error;
// - `checkA11y(page)` runs axe (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA) and requires zero violations;
// - `lang` follows the context's locale (Accept-Language), Japanese unless a test asks for English;
// - `account(email)` gives a demo account whose language setting matches `lang`;
// - `db` reaches the server's libSQL file, so tests seed what they need through the database.
import AxeBuilder from '@axe-core/playwright';
import { createClient, type Client } from '@libsql/client';
import { expect, test as base, type ConsoleMessage, type Page } from '@playwright/test';
import { join } from 'node:path';

export { expect };

export type Lang = 'ja' | 'en';

const PORT = process.env.E2E_PORT;
const DB_DIR = process.env.E2E_DB_DIR;
if (!PORT || !DB_DIR) throw new Error('E2E_PORT and E2E_DB_DIR are set by playwright.config.ts');

export const BASE = '/accounts';
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
// Accessibility

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function runAxe(page: Page, label?: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  const lang = await page.evaluate(() => document.documentElement.lang);
  const where = `${label ? `${label} ` : ''}${page.url()} (lang=${lang})`;
  const readable = results.violations.map((v) =>
    [
      `${v.id} [${v.impact ?? 'n/a'}] ${v.help} (${v.helpUrl})`,
      ...v.nodes.map((n) => `    at ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s*\n\s*/g, ' | ')}`),
    ].join('\n'),
  );
  expect(readable, `axe found accessibility violations on ${where}:\n${readable.join('\n')}`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// Accounts

interface Fixtures {
  lang: Lang;
  consoleGuard: ConsoleGuard;
  checkA11y: (page: Page, label?: string) => Promise<void>;
  account: (seededEmail: string) => Promise<string>;
}

interface WorkerFixtures {
  db: Client;
}

let cloneCounter = 0;

async function columns(db: Client, table: string): Promise<string[]> {
  const r = await db.execute(`PRAGMA table_info(${table})`);
  return r.rows.map((row) => String(row.name)).filter((c) => c !== 'id');
}

/**
 * Copies a demo user (same name, password and memberships) under a new email with another
 * language setting. Signed-in screens follow the user's own language, so a test in English signs
 * in as an English-speaking copy rather than changing a shared demo account under other tests.
 */
async function cloneUser(db: Client, email: string, language: Lang, tag: string): Promise<string> {
  const [local, domain] = email.split('@');
  const newEmail = `${local}+${language}-${tag}-${process.pid}-${++cloneCounter}@${domain}`;
  const userCols = await columns(db, 'users');
  const memberCols = await columns(db, 'tenant_users');
  const pick = (cols: string[], overrides: Record<string, string>) => cols.map((c) => overrides[c] ?? c).join(', ');
  const inserted = await db.execute({
    sql: `INSERT INTO users (${userCols.join(', ')}) SELECT ${pick(userCols, { email: '?', language: '?' })} FROM users WHERE email = ? RETURNING id`,
    args: [newEmail, language, email],
  });
  const id = inserted.rows[0]?.id;
  if (id === undefined) throw new Error(`no demo user ${email}`);
  await db.execute({
    sql: `INSERT INTO tenant_users (${memberCols.join(', ')}) SELECT ${pick(memberCols, { user_id: '?' })} FROM tenant_users WHERE user_id = (SELECT id FROM users WHERE email = ?)`,
    args: [id, email],
  });
  return newEmail;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  lang: async ({ locale }, use) => {
    await use(locale?.toLowerCase().startsWith('en') ? 'en' : 'ja');
  },

  db: [
    async ({}, use) => {
      const db = createClient({ url: `file:${join(DB_DIR, 'portal.db')}` });
      await use(db);
      db.close();
    },
    { scope: 'worker' },
  ],

  consoleGuard: [
    async ({ context }, use, testInfo) => {
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
      if (problems.length > 0 && testInfo.status === testInfo.expectedStatus) {
        throw new Error(`Unexpected browser errors:\n${problems.join('\n')}`);
      }
    },
    { auto: true },
  ],

  checkA11y: async ({}, use) => {
    await use(runAxe);
  },

  account: async ({ db, lang }, use, testInfo) => {
    await use(async (email) => {
      const r = await db.execute({ sql: 'SELECT language FROM users WHERE email = ?', args: [email] });
      if (r.rows.length === 0) throw new Error(`no demo user ${email}`);
      if (r.rows[0]!.language === lang) return email;
      return cloneUser(db, email, lang, testInfo.testId.slice(0, 8));
    });
  },
});

/** The two interface languages, with the Accept-Language the browser context sends for each. */
export const LANGUAGES: { lang: Lang; locale: string }[] = [
  { lang: 'ja', locale: 'ja-JP' },
  { lang: 'en', locale: 'en-US' },
];
