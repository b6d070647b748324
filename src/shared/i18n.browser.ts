// The browser's stand-in for `i18n.ts` (the browser build resolves every import of
// src/shared/i18n here: scripts/browser-build-options.mjs). Same exports the islands use, but
// no i18next and no locale files: `t` looks up the texts the server put in the page for its
// islands (src/client.ts calls setPageTexts before hydrating anything).
import { lookupT, type Lang, type T, type Texts } from './texts';

export { DEFAULT_LANG, isLang, LANGUAGES, type Lang, type T } from './texts';

let pageT: T = lookupT({});

export function setPageTexts(texts: Texts): void {
  // A key the page lacks is a gap in src/island-texts.ts: the text would read as its key.
  pageT = lookupT(texts, (key) => console.error(`No text for "${key}" on this page (src/island-texts.ts)`));
}

/** The page has one language (`<html lang>`), and its texts are the only ones loaded. */
export function getT(_lang: Lang): T {
  return (key, vars) => pageT(key, vars);
}
