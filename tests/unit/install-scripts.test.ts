// Reviewed install scripts (issue 21 part 6, decision 0037): package.json's `allowScripts` names
// every dependency whose install script may run (or is denied), and CI's `npm ci` runs with
// --strict-allow-scripts, so a new dependency that brings an unreviewed script fails the install.
// Checked with `npm ci --dry-run` on copies of package.json and the lockfile: it reads the
// lockfile only (no download, no node_modules) and stops before installing anything.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** `npm ci --dry-run --strict-allow-scripts` on a project with this package.json and lockfile. */
function strictDryRun(p: unknown, l: unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'portal-allow-scripts-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify(p, null, 2));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(l, null, 2));
  const r = spawnSync('npm', ['ci', '--dry-run', '--no-audit', '--no-fund', '--strict-allow-scripts'], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

// npm 11 knows the setting (`npm ci --help` lists it); an older npm would ignore it silently.
const npmKnowsIt = spawnSync('npm', ['ci', '--help'], { encoding: 'utf8' }).stdout.includes('strict-allow-scripts');

describe.skipIf(!npmKnowsIt)('install scripts are reviewed', () => {
  it('every dependency with an install script in the lockfile is approved or denied by name', () => {
    const withScripts = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
      .filter(([, v]) => v.hasInstallScript)
      .map(([path]) => path.split('node_modules/').pop()!);
    expect(new Set(withScripts)).toEqual(new Set(Object.keys(pkg.allowScripts)));
    // sharp only checks for its prebuilt binary (miniflare's images binding, unused here): denied.
    expect(pkg.allowScripts).toEqual({ 'better-sqlite3': true, deno: true, esbuild: true, workerd: true, sharp: false });
    const r = strictDryRun(pkg, lock);
    expect(r.output).not.toContain('install scripts not');
    expect(r.status, r.output).toBe(0);
  });

  it('a new dependency with an unreviewed install script fails the strict install', () => {
    const p = structuredClone(pkg);
    const l = structuredClone(lock);
    p.dependencies['left-native'] = '1.0.0';
    l.packages[''].dependencies['left-native'] = '1.0.0';
    l.packages['node_modules/left-native'] = { version: '1.0.0', integrity: `sha512-${Buffer.alloc(64).toString('base64')}`, hasInstallScript: true, license: 'MIT' };
    const r = strictDryRun(p, l);
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('ESTRICTALLOWSCRIPTS');
    expect(r.output).toContain('left-native@1.0.0');
  });

  it('entries are names: the lockfile records no download addresses, so npm refuses a version-pinned approval', () => {
    const p = structuredClone(pkg);
    delete p.allowScripts.esbuild;
    p.allowScripts['esbuild@0.28.2'] = true;
    const r = strictDryRun(p, lock);
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('esbuild@0.28.2');
  });

  it("CI's install runs strict", () => {
    expect(readFileSync('.ci/run', 'utf8')).toMatch(/^npm ci [^\n]*--strict-allow-scripts/m);
  });
});
