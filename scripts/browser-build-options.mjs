// esbuild options of the browser bundle, shared by scripts/build.mjs and the page-weight
// benchmark (bench/run.ts), so the benchmark measures exactly what the build serves.
import { resolve } from 'node:path';

/**
 * The browser gets the islands' texts from the page (decision 0029): every import of
 * src/shared/i18n.ts (i18next and both locale files, which the server uses) resolves to
 * src/shared/i18n.browser.ts, which has the same exports the islands use.
 * @param {string} root the project folder, with a trailing slash
 */
function pageTextsOnly(root) {
  const serverModule = resolve(root, 'src/shared/i18n');
  return {
    name: 'page-texts-only',
    setup(b) {
      b.onResolve({ filter: /(^|\/)i18n(\.ts)?$/ }, (args) => {
        const target = resolve(args.resolveDir, args.path).replace(/\.ts$/, '');
        return target === serverModule ? { path: `${serverModule}.browser.ts` } : undefined;
      });
    },
  };
}

/** @param {string} root the project folder, with a trailing slash */
export function browserBuildOptions(root) {
  return {
    entryPoints: [`${root}src/client.ts`],
    plugins: [pageTextsOnly(root)],
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: 'es2022',
    metafile: true,
    chunkNames: 'chunk-[hash]',
    entryNames: '[name]',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    // Japanese text as UTF-8, not \uXXXX escapes (module scripts are always decoded as UTF-8).
    charset: 'utf8',
    logLevel: 'warning',
  };
}

/**
 * Inputs the browser bundle must never contain: i18next and the locale files stay on the server
 * (the page carries its islands' texts). scripts/build.mjs refuses a build that has them.
 * @param {{ inputs: Record<string, unknown> }} metafile
 */
export function serverOnlyInputs(metafile) {
  return Object.keys(metafile.inputs).filter((i) => /(^|\/)node_modules\/i18next\/|(^|\/)locales\/[^/]+\.json$/.test(i));
}
