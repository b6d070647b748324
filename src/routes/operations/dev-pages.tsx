// Dev mode only: stand-in app pages and the outbox of mail/SMS the portal "sent".
import { desc } from 'drizzle-orm';
import { Hono } from 'hono';
import { outbox } from '../../db/schema';
import AppStandIn from '../../islands/operations/AppStandIn';
import { Island } from '../../ui/Island';
import { fullTimestamp } from '../../islands/kit/RelativeTime';
import { renderFramed } from '../http/framed';
import type { AppEnv } from '../http/env';
import { renderPage } from '../http/page';

export function devPages(basePath: string, appUrls: Record<'meishi' | 'scheduler' | 'meishi_operator', string>) {
  const app = new Hono<AppEnv>();
  for (const [key, url] of Object.entries(appUrls)) {
    if (!url.startsWith('/')) continue;
    app.get(url, (c) =>
      renderPage(c, {
        titleKey: 'titles.app-stand-in',
        body: <Island name="AppStandIn" component={AppStandIn} props={{ lang: c.get('lang'), basePath, app: key }} />,
      }),
    );
  }
  app.get(`${basePath}/dev/outbox`, async (c) => {
    const t = c.get('t');
    const rows = await c.get('deps').db.select().from(outbox).orderBy(desc(outbox.id)).limit(50);
    return renderFramed(c, {
      titleKey: 'titles.outbox',
      heading: t('titles.outbox'),
      wide: true,
      children: (
        <>
          {rows.length === 0 && <p className="m-0">{t('dev.outboxEmpty')}</p>}
          {rows.map((m) => (
            <article key={m.id} className="mb-4 rounded border border-slate-200 bg-white p-4" data-testid="outbox-message">
              <dl className="m-0 grid grid-cols-1 gap-1 sm:grid-cols-[8rem_minmax(0,1fr)]">
                <dt className="font-semibold">{t('dev.outboxTo')}</dt>
                <dd className="m-0 break-all">{m.recipient}</dd>
                <dt className="font-semibold">{t('dev.outboxSubject')}</dt>
                <dd className="m-0">{m.subject}</dd>
                <dt className="font-semibold">{t('dev.outboxSentAt')}</dt>
                <dd className="m-0">{fullTimestamp(m.createdAt, c.get('lang'))}</dd>
              </dl>
              <pre className="whitespace-pre-wrap break-all">{m.body}</pre>
            </article>
          ))}
        </>
      ),
    });
  });
  return app;
}
