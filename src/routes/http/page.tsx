// A page as an answer: the document (ui/render.tsx) in the request's language, with the page's
// CSP nonce, and the public error page for requests that have no frame of their own.
import type { ReactElement } from 'react';
import { PublicCard } from '../../ui/PublicCard';
import { renderDocument } from '../../ui/render';
import { completeAnswer, pageNonce } from '../middleware/security';
import type { Ctx } from './env';

export interface PageOptions {
  /** i18n key of the page title ("titles.login"). */
  titleKey: string;
  body: ReactElement;
  status?: 200 | 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 502;
}

export function renderPage(c: Ctx, { titleKey, body, status = 200 }: PageOptions): Response {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  // Every page has the page policy (its stylesheet needs it), with or without islands.
  const nonce = pageNonce(c);
  const started = performance.now();
  const doc = renderDocument({ lang, title: `${t(titleKey)} | ${t('product.name')}`, basePath: deps.config.BASE_PATH, nonce, body });
  // Made whole, security headers and no-store included: no page may be kept by a cache.
  return completeAnswer(c, doc, status, 'text/html; charset=UTF-8', deps.config.DEV_MODE ? renderTiming(performance.now() - started) : undefined);
}

/**
 * Dev mode only: how long the render took (React to HTML, the document around it, its UTF-8
 * bytes), as `Server-Timing` (browsers' network panels show it; the bench reads it, decision
 * 0051). Not in production: how long a page takes to render says something of its data.
 * workerd under `wrangler dev` reads its clock to the millisecond (0.000, 1.000, ...): there only
 * a mean over many requests says something.
 */
function renderTiming(ms: number): Record<string, string> {
  return { 'Server-Timing': `render;dur=${ms.toFixed(3)}` };
}

/**
 * Not found, refused and the like, for a request that has no frame of its own to show (unknown
 * host, refused address, a public form refused): the public card every signed-out page has. The
 * app's not-found and error pages use routes/http/framed.tsx, which also frames signed-in people.
 */
export function renderErrorPage(c: Ctx, status: 400 | 403 | 404 | 413 | 415, messageKey: string): Response {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
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
