// Server rendering of whole pages: React to HTML, the document shell, and, only on pages that
// have islands, the browser entry and the texts those islands show (decision 0029).
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { ISLAND_TEXTS, type IslandName } from '../island-texts';
import type { Ctx } from '../routes/http/env';
import { allTexts, type Lang } from '../shared/i18n';
import { pickTexts } from '../shared/texts';
import { IslandContext, scriptJson, type IslandCollector } from './Island';
import { PublicCard } from './PublicCard';
import { pageNonce } from '../routes/middleware/security';

export interface PageOptions {
  /** i18n key of the page title ("titles.login"). */
  titleKey: string;
  body: ReactElement;
  status?: 200 | 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 502;
}

export function renderPage(c: Ctx, { titleKey, body, status = 200 }: PageOptions): Response {
  const { t, lang, deps } = c.var;
  // Every page has the page policy (its stylesheet needs it), with or without islands.
  const nonce = pageNonce(c);
  const base = deps.config.BASE_PATH;
  const collector: IslandCollector = { names: new Set(), next: 0 };
  const html = renderToString(<IslandContext.Provider value={collector}>{body}</IslandContext.Provider>);
  const title = `${t(titleKey)} | ${t('product.name')}`;
  const script = collector.names.size
    ? `<script type="module" nonce="${nonce}" src="${base}/assets/client.js"></script>`
    : '';
  const texts = collector.names.size ? `<script type="application/json" id="page-texts">${pageTexts(lang, collector.names)}</script>` : '';
  // The empty data: icon stops browsers requesting /favicon.ico, which no host serves (a 404 and a
  // console error on every page otherwise).
  const doc = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${base}/assets/app.css">${script}</head><body class="m-0 bg-slate-50 text-slate-900 font-sans">${html}${texts}</body></html>`;
  return c.html(doc, status);
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

/**
 * Not found, refused and the like, for a request that has no frame of its own to show (unknown
 * host, refused address, a public form refused): the public card every signed-out page has. The
 * app's not-found and error pages use routes/http/framed.tsx, which also frames signed-in people.
 */
export function renderErrorPage(c: Ctx, status: 400 | 403 | 404 | 413 | 415, messageKey: string): Response {
  const { t, lang, deps } = c.var;
  const base = deps.config.BASE_PATH;
  return renderPage(c, {
    titleKey: status === 404 ? 'titles.not-found' : 'titles.error',
    status,
    body: (
      <PublicCard t={t} lang={lang} year={new Date(deps.clock.now()).getUTCFullYear()} heading={t(status === 404 ? 'titles.not-found' : 'errors.generic')}>
        <p role="alert" className="mt-0">
          {t(messageKey)}
        </p>
        <p className="mb-0">
          <a className="text-blue-800 underline" href={`${base}/login`}>
            {t('common.backToLogin')}
          </a>
        </p>
      </PublicCard>
    ),
  });
}
