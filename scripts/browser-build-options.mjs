// esbuild options of the browser bundle, shared by scripts/build.mjs and the page-weight
// benchmark (bench/run.ts), so the benchmark measures exactly what the build serves.

// The browser loads only the page's language, as a chunk of its own (src/client.ts imports it):
// here the static locale imports of src/shared/i18n.ts, which the server uses, are empty objects.
const pageLanguageOnly = {
  name: 'page-language-only',
  setup(b) {
    b.onResolve({ filter: /locales\/(ja|en)\.json$/ }, (args) =>
      args.importer.replaceAll('\\', '/').endsWith('src/shared/i18n.ts') ? { path: args.path, namespace: 'empty-locale' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'empty-locale' }, () => ({ contents: '{}', loader: 'json' }));
  },
};

/** @param {string} root the project folder, with a trailing slash */
export function browserBuildOptions(root) {
  return {
    entryPoints: [`${root}src/client.ts`],
    plugins: [pageLanguageOnly],
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
