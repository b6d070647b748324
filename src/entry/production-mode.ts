// React, and the other libraries that read NODE_ENV when they are first imported, pick their
// production build (React renders a page several times faster in it) unless NODE_ENV names another
// mode (`NODE_ENV=development` for React's warnings while working on a screen). Imported first by
// the Node and Deno entries, since ES modules run in import order; the Worker gets the same from
// `define` in wrangler.toml, the browser bundle from scripts/browser-build-options.mjs.
if (typeof process !== 'undefined' && !process.env.NODE_ENV) process.env.NODE_ENV = 'production';

export {};
