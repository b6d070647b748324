// Builds the browser assets: the island bundles (esbuild, one chunk per island) and one CSS file
// (UnoCSS). Output: dist/public<BASE_PATH>/assets, served by Workers Assets and by the Node entry.
// Also the Node entry as one file, dist/server/node.mjs (decision 0049).
import { build } from 'esbuild';
import { createGenerator } from 'unocss';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { browserBuildOptions, serverOnlyInputs } from './browser-build-options.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const base = (process.env.BASE_PATH ?? '/accounts').replace(/\/+$/, '');
// Built into a fresh folder, then swapped in, so a server running meanwhile never sees a
// half-empty asset folder for longer than one rename.
const staging = `${root}dist/public.${process.pid}`;
const out = `${staging}${base}/assets`;

await rm(staging, { recursive: true, force: true });
await mkdir(out, { recursive: true });

const result = await build({ ...browserBuildOptions(root), outdir: out });
const leaked = serverOnlyInputs(result.metafile);
if (leaked.length) throw new Error(`the browser bundle must not contain ${leaked.join(', ')} (an island imports them past src/shared/i18n.ts?)`);

const { default: config } = await import(`${root}uno.config.ts`).catch(async () => {
  // Node cannot import .ts directly: compile the config with esbuild first.
  const tmp = `${root}dist/uno.config.mjs`;
  await build({ entryPoints: [`${root}uno.config.ts`], outfile: tmp, format: 'esm', platform: 'node', bundle: false, logLevel: 'warning' });
  return import(tmp);
});
const uno = await createGenerator(config);
let source = '';
for (const f of await readdir(`${root}src`, { recursive: true })) {
  if (f.endsWith('.tsx')) source += await readFile(`${root}src/${f}`, 'utf8');
}
const { css } = await uno.generate(source, { minify: true });
// Tailwind's preflight reset first (border styles, box sizing), then the utilities.
const reset = await readFile(`${root}node_modules/@unocss/reset/tailwind.css`, 'utf8');
await writeFile(`${out}/app.css`, reset.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, ' ') + css);

await rm(`${root}dist/public.old`, { recursive: true, force: true });
await rename(`${root}dist/public`, `${root}dist/public.old`).catch(() => undefined);
await rename(staging, `${root}dist/public`);
await rm(`${root}dist/public.old`, { recursive: true, force: true });

// The Node entry bundled, as a Node deployment and `npm run start:node` run it: compiled once here
// rather than by tsx at every start, and without the name-keeping calls tsx adds to every function
// a render creates (3-14% of a screen's CPU, decision 0049). Packages stay in node_modules.
const server = { outdir: `${root}dist/server`, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning', outExtension: { '.js': '.mjs' } };
await build({ ...server, entryPoints: { 'production-mode': `${root}src/entry/production-mode.ts` } });
await build({
  ...server,
  entryPoints: { node: `${root}src/entry/node.ts` },
  bundle: true,
  packages: 'external',
  jsx: 'automatic',
  sourcemap: 'linked',
  // A package's import runs before the bundle's own code, so React would read NODE_ENV before the
  // inlined production-mode.ts set it: the same module, imported first, sets it in time.
  banner: { js: "import './production-mode.mjs';" },
});

const sizes = Object.entries(result.metafile.outputs).map(([f, o]) => `${f.replace(root, '')} ${o.bytes}`);
if (process.env.BUILD_VERBOSE) console.log(sizes.join('\n'));
console.log(`Built assets in dist/public${base}/assets (css ${gzipSync(css).length} B gzip) and the Node entry in dist/server`);
