// Server rendering of whole pages: React to HTML, the document shell, and the browser entry only
// on pages that have islands.
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { Ctx } from '../routes/env';
import { IslandContext, type IslandCollector } from './Island';

export interface PageOptions {
  /** i18n key of the page title ("titles.login"). */
  titleKey: string;
  body: ReactElement;
  status?: 200 | 403 | 404 | 400;
}

export function renderPage(c: Ctx, { titleKey, body, status = 200 }: PageOptions): Response {
  const { t, lang, nonce, deps } = c.var;
  const base = deps.config.BASE_PATH;
  const collector: IslandCollector = { names: new Set(), next: 0 };
  const html = renderToString(<IslandContext.Provider value={collector}>{body}</IslandContext.Provider>);
  const title = `${t(titleKey)} | ${t('product.name')}`;
  const script = collector.names.size
    ? `<script type="module" nonce="${nonce}" src="${base}/assets/client.js"></script>`
    : '';
  // The empty data: icon stops browsers requesting /favicon.ico, which no host serves (a 404 and a
  // console error on every page otherwise).
  const doc = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${base}/assets/app.css">${script}</head><body class="m-0 bg-slate-50 text-slate-900 font-sans">${html}</body></html>`;
  return c.html(doc, status);
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export function renderErrorPage(c: Ctx, status: 400 | 403 | 404, messageKey: string): Response {
  const t = c.var.t;
  const base = c.var.deps.config.BASE_PATH;
  return renderPage(c, {
    titleKey: status === 404 ? 'titles.not-found' : 'titles.login',
    status,
    body: (
      <main className="mx-auto max-w-xl p-8">
        <h1 className="text-2xl font-semibold">{t(status === 404 ? 'titles.not-found' : 'errors.generic')}</h1>
        <p role="alert">{t(messageKey)}</p>
        <p>
          <a className="text-blue-800 underline" href={`${base}/login`}>
            {t('common.backToLogin')}
          </a>
        </p>
      </main>
    ),
  });
}
