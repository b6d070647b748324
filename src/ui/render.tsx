// Server rendering of whole pages: React to HTML, the document shell, and, only on pages that
// have islands, the browser entry and the texts those islands show (decision 0029).
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { ISLAND_TEXTS, type IslandName } from '../island-texts';
import { allTexts, type Lang } from '../shared/i18n';
import { pickTexts } from '../shared/texts';
import { IslandContext, scriptJson, type IslandCollector } from './Island';

export interface DocumentOptions {
  lang: Lang;
  /** The page title as shown ("<page title> | <product>"). */
  title: string;
  basePath: string;
  /** The CSP nonce the page's own script carries. */
  nonce: string;
  body: ReactElement;
}

/**
 * The whole document of a page: React to HTML inside the shell (title, stylesheet), and on pages
 * that have islands the browser entry and the texts those islands show.
 */
export function renderDocument({ lang, title, basePath: base, nonce, body }: DocumentOptions): string {
  const collector: IslandCollector = { names: new Set(), next: 0 };
  const html = renderToString(<IslandContext.Provider value={collector}>{body}</IslandContext.Provider>);
  const script = collector.names.size
    ? `<script type="module" nonce="${nonce}" src="${base}/assets/client.js"></script>`
    : '';
  const texts = collector.names.size ? `<script type="application/json" id="page-texts">${pageTexts(lang, collector.names)}</script>` : '';
  // The empty data: icon stops browsers requesting /favicon.ico, which no host serves (a 404 and a
  // console error on every page otherwise).
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${base}/assets/app.css">${script}</head><body class="m-0 bg-slate-50 text-slate-900 font-sans">${html}${texts}</body></html>`;
}

// The texts of a set of islands in one language, as script-safe JSON; few sets exist, each made once.
const textsBySet = new Map<string, string>();
function pageTexts(lang: Lang, names: Set<IslandName>): string {
  const id = `${lang}:${[...names].sort().join(',')}`;
  let json = textsBySet.get(id);
  if (json === undefined) {
    json = scriptJson(pickTexts(allTexts(lang), [...names].flatMap((n) => ISLAND_TEXTS[n])));
    textsBySet.set(id, json);
  }
  return json;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
