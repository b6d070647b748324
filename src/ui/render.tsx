// Server rendering of whole pages: React to HTML, the document shell, and, only on pages that
// have islands, the browser entry and the texts those islands show (decision 0029).
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { ISLAND_TEXTS, type IslandName } from '../island-texts';
import { allTexts, type Lang } from '../shared/i18n';
import { pickTexts } from '../shared/texts';
import { Frame } from './Frame';
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
 * The whole document of a page as UTF-8 bytes: React to HTML inside the shell (title,
 * stylesheet), and on pages that have islands the browser entry and the texts those islands show.
 * Bytes because a string answer is measured (Content-Length) and then encoded, two passes over
 * it, and the islands' texts, up to half a page, are the same for every request of a screen and
 * language: they are encoded once.
 */
export function renderDocument({ lang, title, basePath: base, nonce, body }: DocumentOptions): Uint8Array<ArrayBuffer> {
  const collector: IslandCollector = { names: new Set(), next: 0, framed: body.type === Frame };
  const rendered = renderToString(<IslandContext.Provider value={collector}>{body}</IslandContext.Provider>);
  // A signed-in screen's frame around its part, as ropes: no pass over the page's HTML before its encoding.
  const html = collector.frame ? collector.frame.before + rendered + collector.frame.after : rendered;
  const script = collector.names.size
    ? `<script type="module" nonce="${nonce}" src="${base}/assets/client.js"></script>`
    : '';
  // The empty data: icon stops browsers requesting /favicon.ico, which no host serves (a 404 and a
  // console error on every page otherwise).
  const page = utf8.encode(`<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${base}/assets/app.css">${script}</head><body class="m-0 bg-slate-50 text-slate-900 font-sans">${html}`);
  const texts = collector.names.size ? pageTexts(lang, collector.names) : NOTHING;
  const doc = new Uint8Array(page.length + texts.length + DOCUMENT_END.length);
  doc.set(page);
  doc.set(texts, page.length);
  doc.set(DOCUMENT_END, page.length + texts.length);
  return doc;
}

const utf8 = new TextEncoder();
const NOTHING = new Uint8Array(0);
const DOCUMENT_END = utf8.encode('</body></html>');

// The texts of a set of islands in one language, as a script-safe JSON element in UTF-8; few sets
// exist, each made once.
const textsBySet = new Map<string, Uint8Array>();
function pageTexts(lang: Lang, names: Set<IslandName>): Uint8Array {
  const id = `${lang}:${[...names].sort().join(',')}`;
  let bytes = textsBySet.get(id);
  if (bytes === undefined) {
    const json = scriptJson(pickTexts(allTexts(lang), [...names].flatMap((n) => ISLAND_TEXTS[n])));
    bytes = utf8.encode(`<script type="application/json" id="page-texts">${json}</script>`);
    textsBySet.set(id, bytes);
  }
  return bytes;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
