// Pages that are not a screen of their own (not found, refused, the SSO result pages, the dev
// outbox) in the frame every other page has: a signed-in person on a tenant's host sees the
// toolbar and drawer around them, anyone else the public card with the language switch (issue 14).
import type { ReactNode } from 'react';
import { Frame } from '../../ui/Frame';
import { PublicCard } from '../../ui/PublicCard';
import type { Ctx } from './env';
import { loadFrame } from './frame-data';
import { type PageOptions, renderPage } from './page';

export async function renderFramed(c: Ctx, opts: { titleKey: string; status?: PageOptions['status']; heading: string; wide?: boolean; children: ReactNode }): Promise<Response> {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const user = c.get('user');
  if (user && c.get('hostTenant')) {
    try {
      const { data } = await loadFrame(c, user);
      return renderPage(c, {
        titleKey: opts.titleKey,
        status: opts.status,
        body: (
          <Frame data={data}>
            <h1 className="mb-4 mt-0 text-2xl font-semibold">{opts.heading}</h1>
            <div className={opts.wide ? 'max-w-5xl' : 'max-w-2xl'}>{opts.children}</div>
          </Frame>
        ),
      });
    } catch {
      // The frame could not be read (the session went meanwhile): the public card still says it.
    }
  }
  return renderPage(c, {
    titleKey: opts.titleKey,
    status: opts.status,
    body: (
      <PublicCard t={t} lang={lang} year={new Date(deps.clock.now()).getUTCFullYear()} heading={opts.heading} wide={opts.wide}>
        {opts.children}
      </PublicCard>
    ),
  });
}

/** Not found, refused and the like: the message and the way back (ui/render.tsx renderErrorPage when no frame can be shown). */
export function errorPage(c: Ctx, status: 400 | 403 | 404 | 413 | 415, messageKey: string): Promise<Response> {
  const t = c.get('t');
  const deps = c.get('deps');
  const base = deps.config.BASE_PATH;
  const signedIn = Boolean(c.get('user') && c.get('hostTenant'));
  return renderFramed(c, {
    titleKey: status === 404 ? 'titles.not-found' : 'titles.error',
    status,
    heading: t(status === 404 ? 'titles.not-found' : 'errors.generic'),
    children: (
      <>
        <p role="alert" className="mt-0">
          {t(messageKey)}
        </p>
        <p className="mb-0">
          <a className="text-blue-800 underline" href={`${base}${signedIn ? '/my-account' : '/login'}`}>
            {t(signedIn ? 'common.backToMyAccount' : 'common.backToLogin')}
          </a>
        </p>
      </>
    ),
  });
}
