// The JavaScript the login page ships (issue 13: at most 80 KB gzip), measured as bench/run.ts
// measures it: the page's module script and the chunks of the islands it marks, following static
// imports through esbuild's metafile (a build with the options of scripts/build.mjs), each file
// gzip level 9. A budget, not a timing; bench/RESULTS.md has the figures of every page.
import { build, type Metafile } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserBuildOptions } from '../../scripts/browser-build-options.mjs';
import { eq } from 'drizzle-orm';
import { tenants } from '../../src/db/schema';
import { createHarness, type Harness } from '../support/harness';

const root = fileURLToPath(new URL('../../', import.meta.url));
const LOGIN_BUDGET = 80 * 1024;
/** The forced 2FA setup at login: 86.9 KB gzip with the authenticator only, 87.4 KB with the SMS
 *  choice (its step and libphonenumber's metadata load only when chosen). */
const SETUP_AT_LOGIN_BUDGET = 88 * 1024;

let h: Harness;
let outputs: Metafile['outputs'];
const bytes = new Map<string, Uint8Array>();
beforeAll(async () => {
  h = await createHarness();
  const result = await build({ ...browserBuildOptions(root), outdir: `${root}dist/public/accounts/assets`, write: false, absWorkingDir: root });
  outputs = result.metafile.outputs;
  for (const f of result.outputFiles) bytes.set(f.path.slice(root.length), f.contents);
}, 60_000);
afterAll(() => h.close());

/** Output keys ("dist/public/accounts/assets/chunk-X.js") of a file and everything it imports statically. */
function closure(key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  for (const imp of outputs[key]?.imports ?? []) if (imp.kind === 'import-statement') closure(imp.path, into);
  return into;
}

async function pageFiles(host: string, path: string, headers: Record<string, string> = {}, client = h.client(host)) {
  const html = (await client.get(path, { headers })).text;
  const files = new Set<string>();
  for (const m of html.matchAll(/<script type="module"[^>]*\ssrc="([^"]+)"/g)) closure(`dist/public${m[1]}`, files);
  const islands = [...new Set([...html.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]!))];
  for (const name of islands) {
    const chunk = Object.entries(outputs).find(([, o]) => o.entryPoint !== undefined && new RegExp(`^src/islands/[\\w-]+/${name}\\.tsx$`).test(o.entryPoint))?.[0];
    expect(chunk, name).toBeDefined();
    closure(chunk!, files);
  }
  const gzip = [...files].reduce((sum, f) => sum + gzipSync(bytes.get(f)!, { level: 9 }).length, 0);
  const inputs = [...files].flatMap((f) => Object.keys(outputs[f]!.inputs));
  return { html, islands, files, gzip, inputs };
}

describe('JavaScript the sign-in pages ship', () => {
  it.each([
    ['a tenant host', 'acme.localhost:8787'],
    ['the main domain', 'localhost:8787'],
  ])('the login page on %s ships at most 80 KB gzip, without zod, i18next or a locale file', async (_, host) => {
    for (const lang of ['ja', 'en']) {
      const page = await pageFiles(host, '/accounts/login', { 'accept-language': lang });
      expect(page.islands.sort()).toEqual(['LanguageSwitch', 'LoginForm']);
      expect(page.gzip, `${host} ${lang}: ${page.gzip} bytes`).toBeLessThanOrEqual(LOGIN_BUDGET);
      expect(page.inputs.filter((i) => /node_modules\/(zod|i18next)\/|^locales\//.test(i))).toEqual([]);
      // React is most of it.
      expect(page.inputs).toContain('node_modules/react-dom/cjs/react-dom-client.production.js');
      // The texts come with the page instead, in its language.
      const texts = JSON.parse(/<script type="application\/json" id="page-texts">(.*?)<\/script>/.exec(page.html)![1]!);
      expect(texts['login.next']).toBe(lang === 'ja' ? '次へ' : 'Next');
    }
  });

  it('no page loads i18next or a locale file in the browser', () => {
    const all = Object.values(outputs).flatMap((o) => Object.keys(o.inputs));
    expect(all.filter((i) => /node_modules\/i18next\/|^locales\//.test(i))).toEqual([]);
  });

  it('the forgot, reset and register pages ship no zod either', async () => {
    for (const path of ['/accounts/forgot', '/accounts/reset?email=user%40acme.test&token=x', '/accounts/register/a%40b.test?expires=1&id=1&signature=00']) {
      const page = await pageFiles('acme.localhost:8787', path);
      expect(page.islands.length, path).toBeGreaterThan(1);
      expect(page.inputs.filter((i) => /node_modules\/zod\//.test(i)), path).toEqual([]);
    }
  });

  it('the forced 2FA setup at login ships the SMS step (libphonenumber) only when SMS is chosen (decision 0046)', async () => {
    await h.deps.db.update(tenants).set({ isTwofaEnforced: true }).where(eq(tenants.id, 1));
    const b = h.client('acme.localhost:8787');
    expect((await b.login('user@acme.test')).body.message).toBe('enable-twofa');
    const page = await pageFiles('acme.localhost:8787', '/accounts/setup-twofa-at-login', {}, b);
    expect(page.islands).toContain('SetupTwofaAtLogin');
    expect(page.inputs.filter((i) => /node_modules\/libphonenumber-js\/|src\/islands\/twofa\/TwofaSms\.tsx/.test(i))).toEqual([]);
    // The SMS step is a chunk of its own, with the mobile metadata.
    const sms = Object.entries(outputs).filter(([, o]) => Object.keys(o.inputs).includes('src/islands/twofa/TwofaSms.tsx'));
    expect(sms).toHaveLength(1);
    expect(page.files.has(sms[0]![0])).toBe(false);
    expect(page.gzip, `${page.gzip} bytes`).toBeLessThanOrEqual(SETUP_AT_LOGIN_BUDGET);
  });
});
