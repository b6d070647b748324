// Activity log (spec 02 route activity-logs; the content is ours: decision 0021): the tenant's
// audit entries newest first, 50 per page with "older" / "newest" links (keyset: no page drifts as
// new entries arrive), and the CSV download of the whole log. Server-rendered only: nothing on it
// needs JavaScript.
import { formatCursor, listActivity, parseCursor, type ActivityEntry } from '../../../domain/audit/list';
import { parseAgent } from '../../../domain/auth/user-agent';
import { formatDateTime } from '../../../shared/dates';
import type { Lang, T } from '../../../shared/i18n';
import { Frame } from '../../../ui/Frame';
import { renderPage } from '../../../ui/render';
import type { Ctx } from '../../env';
import { loadFrame } from '../frame-data';
import { AdminHeading } from './parts';

function agentText(t: T, ua: string | null): string {
  if (!ua) return '';
  const a = parseAgent(ua);
  return a.browser || a.os ? t('devices.summary', { browser: a.browser ?? t('devices.unknown'), os: a.os ?? t('devices.unknown') }) : ua.slice(0, 60);
}

function Row({ t, lang, e }: { t: T; lang: Lang; e: ActivityEntry }) {
  const cell = 'border-b border-slate-200 px-3 py-2 align-top';
  return (
    <tr>
      <td className={`${cell} whitespace-nowrap`}>
        <time dateTime={new Date(e.createdAt).toISOString()}>{formatDateTime(e.createdAt, lang)}</time>
      </td>
      <td className={cell}>
        {e.actorName ?? e.actorEmail ? (
          <>
            <span className="block">{e.actorName}</span>
            <span className="block text-sm text-slate-700">{e.actorEmail}</span>
          </>
        ) : (
          <span className="text-slate-700">{t('activityLogs.noActor')}</span>
        )}
      </td>
      <td className={cell}>
        <code className="break-all text-sm">{e.action}</code>
      </td>
      <td className={`${cell} text-sm`}>{e.targetType ? `${e.targetType}${e.targetId ? ` #${e.targetId}` : ''}` : ''}</td>
      <td className={`${cell} text-sm`}>{e.ipAddress ?? ''}</td>
      <td className={`${cell} text-sm`} title={e.userAgent ?? undefined}>
        {agentText(t, e.userAgent)}
      </td>
    </tr>
  );
}

export async function activityLogsPage(c: Ctx) {
  const { t, lang, deps } = c.var;
  const tenant = c.get('hostTenant')!;
  const base = deps.config.BASE_PATH;
  const before = parseCursor(c.req.query('before'));
  const { data } = await loadFrame(c);
  const { entries, next } = await listActivity(deps.db, tenant.id, before);
  const head = 'border-b-2 border-slate-300 px-3 py-2 text-left text-sm font-semibold';
  const link = 'text-blue-800 underline';
  return renderPage(c, {
    titleKey: 'titles.activity-logs',
    body: (
      <Frame data={data}>
        <AdminHeading t={t} titleKey="titles.activity-logs" intro={t('activityLogs.intro')} />
        <p className="mb-4 mt-0">
          <a
            className="inline-block rounded border border-blue-800 bg-white px-4 py-2 text-blue-900 no-underline hover:bg-blue-50"
            href={`${base}/api/admin/activity-logs/export-csv`}
            download
            data-testid="activity-export"
          >
            {t('activityLogs.download')}
          </a>
        </p>
        {entries.length === 0 ? (
          <p className="m-0 text-slate-700" data-testid="activity-empty">
            {t('activityLogs.empty')}
          </p>
        ) : (
          <div className="overflow-x-auto rounded-lg bg-white shadow">
            <table className="w-full border-collapse" data-testid="activity-table">
              <caption className="sr-only">{t('titles.activity-logs')}</caption>
              <thead>
                <tr>
                  <th scope="col" className={head}>{t('people.auditCsv.columns.time')}</th>
                  <th scope="col" className={head}>{t('people.auditCsv.columns.actor')}</th>
                  <th scope="col" className={head}>{t('people.auditCsv.columns.action')}</th>
                  <th scope="col" className={head}>{t('activityLogs.target')}</th>
                  <th scope="col" className={head}>{t('people.auditCsv.columns.ip')}</th>
                  <th scope="col" className={head}>{t('activityLogs.device')}</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <Row key={e.id} t={t} lang={lang} e={e} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        <nav aria-label={t('activityLogs.pages')} className="mt-4 flex gap-6">
          {before && (
            <a className={link} href={`${base}/admin/activity-logs`} data-testid="activity-newest">
              {t('activityLogs.newest')}
            </a>
          )}
          {next && (
            <a className={link} href={`${base}/admin/activity-logs?before=${formatCursor(next)}`} rel="next" data-testid="activity-older">
              {t('activityLogs.older')}
            </a>
          )}
        </nav>
      </Frame>
    ),
  });
}
