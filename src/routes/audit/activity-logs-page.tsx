// Activity log (spec 02 route activity-logs; the content is ours: decisions 0021 and 0032): the
// tenant's audit entries newest first, 50 per page with "older" / "newest" links (keyset: no page
// drifts as new entries arrive), filters by actor, action and dates as GET query parameters, a
// detail panel for one entry (`?entry=<id>`, the filters kept), readable action names in both
// languages, and the CSV download of the whole log. Server-rendered only: nothing on it needs
// JavaScript. Times are Tokyo time, the zone named in the column's header.
import { formatCursor, getActivity, listActivity, parseCursor, type ActivityEntry, type ActivityFilter } from '../../domain/audit/list';
import { parseAgent } from '../../domain/sign-in/user-agent';
import { DataTable } from '../../islands/kit/DataTable';
import { fullTimestamp } from '../../islands/kit/RelativeTime';
import { formatDate, formatDateTime, TENANT_TIME_ZONE } from '../../shared/dates';
import type { Lang, T } from '../../shared/i18n';
import { zoneLabelKey } from '../../shared/time-zone';
import { Frame } from '../../ui/Frame';
import type { TenantCtx } from '../http/env';
import { loadFrame } from '../http/frame-data';
import { actionOptionsHtml, eventLabel, parseActionFilter } from './activity-events';
import { AdminHeading } from '../http/admin-parts';
import { renderPage } from '../http/page';

const LINK = 'text-blue-800 underline';
const FIELD = 'mt-1 block w-full rounded border border-slate-500 bg-white px-3 py-2 text-base';
const TOKYO_OFFSET_MS = 9 * 3_600_000;

function agentText(t: T, ua: string | null): string {
  if (!ua) return '';
  const a = parseAgent(ua);
  return a.browser || a.os ? t('devices.summary', { browser: a.browser ?? t('devices.unknown'), os: a.os ?? t('devices.unknown') }) : ua.slice(0, 60);
}

/** "2026-11-25" as the start of that day in Tokyo (epoch ms), or undefined when it is no date. */
function tokyoDay(value: string | undefined): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value ?? '');
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - TOKYO_OFFSET_MS;
  return Number.isNaN(ms) ? undefined : ms;
}

interface Filters {
  actor: string;
  action: string;
  from: string;
  to: string;
}

/** The query string of the filters (and, when given, a cursor or an entry), without empty parts. */
function query(f: Filters, extra: Record<string, string> = {}): string {
  const p = new URLSearchParams();
  if (f.actor) p.set('actor', f.actor);
  if (f.action) p.set('action', f.action);
  if (f.from) p.set('from', f.from);
  if (f.to) p.set('to', f.to);
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
}

function Actor({ t, e }: { t: T; e: ActivityEntry }) {
  if (!e.actorName && !e.actorEmail) return <span className="text-slate-700">{t('activityLogs.noActor')}</span>;
  return (
    <>
      <span className="block truncate" title={e.actorName ?? undefined}>
        {e.actorName}
      </span>
      <span className="block truncate text-xs text-slate-700" title={e.actorEmail ?? undefined}>
        {e.actorEmail}
      </span>
    </>
  );
}

/** The readable name, and under it the code word (alone when the action has no name). */
function Event({ t, lang, action }: { t: T; lang: Lang; action: string }) {
  const label = eventLabel(t, lang, action);
  return (
    <>
      {label !== action && (
        <span className="block" data-testid="activity-event">
          {label}
        </span>
      )}
      <code className={`block truncate ${label !== action ? 'text-xs text-slate-700' : 'text-sm'}`} title={action}>
        {action}
      </code>
    </>
  );
}

function DetailPanel({ t, lang, e, closeHref }: { t: T; lang: Lang; e: ActivityEntry & { details: unknown }; closeHref: string }) {
  const row = 'grid grid-cols-1 gap-1 border-b border-slate-200 py-2 sm:grid-cols-[11rem_minmax(0,1fr)] sm:gap-3';
  const details = e.details && typeof e.details === 'object' && Object.keys(e.details).length ? JSON.stringify(e.details, null, 2) : null;
  return (
    <section aria-labelledby="activity-detail-title" className="mb-6 max-w-3xl rounded-lg border border-blue-300 bg-white p-4 shadow" data-testid="activity-detail">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id="activity-detail-title" tabIndex={-1} className="m-0 text-lg font-semibold">
          {t('activityLogs.detailTitle')}
        </h2>
        <a className={LINK} href={closeHref} data-testid="activity-detail-close">
          {t('activityLogs.close')}
        </a>
      </div>
      <dl className="m-0 mt-2 text-sm">
        <div className={row}>
          <dt className="font-semibold">{t('activityLogs.event')}</dt>
          <dd className="m-0">{eventLabel(t, lang, e.action)}</dd>
        </div>
        <div className={row}>
          <dt className="font-semibold">{t('activityLogs.code')}</dt>
          <dd className="m-0 break-all">
            <code>{e.action}</code>
          </dd>
        </div>
        <div className={row}>
          <dt className="font-semibold">{t('people.auditCsv.columns.time')}</dt>
          <dd className="m-0">
            <time dateTime={new Date(e.createdAt).toISOString()}>{fullTimestamp(e.createdAt, lang)}</time>
          </dd>
        </div>
        <div className={row}>
          <dt className="font-semibold">{t('people.auditCsv.columns.actor')}</dt>
          <dd className="m-0 break-all">{e.actorName || e.actorEmail ? `${e.actorName ?? ''} ${e.actorEmail ? `<${e.actorEmail}>` : ''}`.trim() : t('activityLogs.noActor')}</dd>
        </div>
        <div className={row}>
          <dt className="font-semibold">{t('activityLogs.targetType')}</dt>
          <dd className="m-0">{e.targetType ?? t('activityLogs.none')}</dd>
        </div>
        <div className={row}>
          <dt className="font-semibold">{t('activityLogs.targetId')}</dt>
          <dd className="m-0 break-all">{e.targetId ?? t('activityLogs.none')}</dd>
        </div>
        <div className={row}>
          <dt className="font-semibold">{t('activityLogs.ip')}</dt>
          <dd className="m-0 break-all">{e.ipAddress ?? t('activityLogs.none')}</dd>
        </div>
        <div className={row}>
          <dt className="font-semibold">{t('activityLogs.userAgent')}</dt>
          <dd className="m-0 break-all">{e.userAgent ?? t('activityLogs.none')}</dd>
        </div>
        <div className={row}>
          <dt className="font-semibold">{t('activityLogs.extra')}</dt>
          <dd className="m-0">{details ? <pre className="m-0 overflow-x-auto whitespace-pre-wrap break-all text-xs">{details}</pre> : t('activityLogs.none')}</dd>
        </div>
      </dl>
    </section>
  );
}

function FilterForm({ t, lang, f, path }: { t: T; lang: Lang; f: Filters; path: string }) {
  const filtered = Boolean(f.actor || f.action || f.from || f.to);
  return (
    <form method="get" action={path} role="search" aria-labelledby="activity-filters-title" className="mb-4 rounded-lg bg-white p-4 shadow" data-testid="activity-filters">
      <h2 id="activity-filters-title" className="m-0 mb-3 text-base font-semibold">
        {t('activityLogs.filters')}
      </h2>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-4">
        <div>
          <label htmlFor="activity-actor" className="block text-sm font-medium">
            {t('activityLogs.actor')}
          </label>
          <input id="activity-actor" type="search" name="actor" defaultValue={f.actor} maxLength={255} className={FIELD} />
        </div>
        <div>
          <label htmlFor="activity-action" className="block text-sm font-medium">
            {t('activityLogs.action')}
          </label>
          <select id="activity-action" name="action" className={FIELD} dangerouslySetInnerHTML={{ __html: actionOptionsHtml(t, lang, f.action) }} />
        </div>
        <div>
          <label htmlFor="activity-from" className="block text-sm font-medium">
            {t('activityLogs.from')}
          </label>
          <input id="activity-from" type="date" name="from" defaultValue={f.from} aria-describedby="activity-date-hint" className={FIELD} />
        </div>
        <div>
          <label htmlFor="activity-to" className="block text-sm font-medium">
            {t('activityLogs.to')}
          </label>
          <input id="activity-to" type="date" name="to" defaultValue={f.to} aria-describedby="activity-date-hint" className={FIELD} />
        </div>
      </div>
      <p id="activity-date-hint" className="m-0 mt-2 text-sm text-slate-700">
        {t('activityLogs.dateHint')}
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button type="submit" className="rounded bg-blue-800 px-4 py-2 text-base font-medium text-white hover:bg-blue-900">
          {t('activityLogs.apply')}
        </button>
        {filtered && (
          <a className={LINK} href={path} data-testid="activity-clear">
            {t('activityLogs.clear')}
          </a>
        )}
      </div>
    </form>
  );
}

export async function activityLogsPage(c: TenantCtx) {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const base = deps.config.BASE_PATH;
  const path = `${base}/admin/activity-logs`;
  const before = parseCursor(c.req.query('before'));
  const f: Filters = {
    actor: (c.req.query('actor') ?? '').trim().slice(0, 255),
    action: parseActionFilter(c.req.query('action')) ?? '',
    from: tokyoDay(c.req.query('from')) !== undefined ? c.req.query('from')! : '',
    to: tokyoDay(c.req.query('to')) !== undefined ? c.req.query('to')! : '',
  };
  const filter: ActivityFilter = {
    actor: f.actor || undefined,
    action: f.action || undefined,
    from: tokyoDay(f.from),
    // "To" includes that whole day.
    to: f.to ? tokyoDay(f.to)! + 86_400_000 : undefined,
  };
  const entryId = Number(c.req.query('entry'));
  const [{ data }, { entries, next }, entry] = await Promise.all([
    loadFrame(c, c.get('user')),
    listActivity(scope, before, undefined, filter),
    Number.isInteger(entryId) && entryId > 0 ? getActivity(scope, entryId) : Promise.resolve(null),
  ]);
  const here: Record<string, string> = before ? { before: formatCursor(before) } : {};
  const filtered = Boolean(f.actor || f.action || f.from || f.to);
  const zone = t(zoneLabelKey(TENANT_TIME_ZONE));
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
        <FilterForm t={t} lang={lang} f={f} path={path} />
        {entry && <DetailPanel t={t} lang={lang} e={entry} closeHref={`${path}${query(f, here)}`} />}
        {entries.length === 0 && !filtered ? (
          <p className="m-0 text-slate-700" data-testid="activity-empty">
            {t('activityLogs.empty')}
          </p>
        ) : (
          <DataTable<ActivityEntry>
            t={t}
            testId="activity-table"
            caption={t('titles.activity-logs')}
            minWidth="min-w-[52rem]"
            // On a phone the card shows when, who and what; the entry's link shows the rest.
            details="none"
            rows={entries}
            rowKey={(e) => e.id}
            rowAttrs={(e) => ({ 'data-testid': 'activity-row', 'data-id': e.id, 'data-action': e.action })}
            columns={[
              {
                key: 'time',
                header: t('activityLogs.time', { zone }),
                width: 'w-[9.5rem]',
                compact: 'title',
                render: (e) => (
                  <time dateTime={new Date(e.createdAt).toISOString()} title={fullTimestamp(e.createdAt, lang)}>
                    <span className="block whitespace-nowrap">{formatDate(e.createdAt, lang)}</span>
                    <span className="block whitespace-nowrap">{formatDateTime(e.createdAt, lang).split(' ').pop()}</span>
                  </time>
                ),
              },
              { key: 'actor', header: t('people.auditCsv.columns.actor'), compact: 'subtitle', render: (e) => <Actor t={t} e={e} /> },
              { key: 'event', header: t('activityLogs.event'), width: 'w-[13rem]', compact: 'subtitle', render: (e) => <Event t={t} lang={lang} action={e.action} /> },
              {
                key: 'target',
                header: t('activityLogs.target'),
                width: 'w-[7rem]',
                truncate: (e) => (e.targetType ? `${e.targetType}${e.targetId ? ` #${e.targetId}` : ''}` : ''),
                render: (e) => (e.targetType ? `${e.targetType}${e.targetId ? ` #${e.targetId}` : ''}` : ''),
              },
              { key: 'ip', header: t('activityLogs.ip'), width: 'w-[8rem]', truncate: (e) => e.ipAddress ?? '', render: (e) => e.ipAddress ?? '' },
              { key: 'device', header: t('activityLogs.device'), width: 'w-[9rem]', truncate: (e) => e.userAgent ?? '', render: (e) => agentText(t, e.userAgent) },
            ]}
            actions={{
              kind: 'custom',
              header: t('activityLogs.details'),
              width: 'w-[5.5rem]',
              render: (e) => (
                <a
                className={LINK}
                href={`${path}${query(f, { ...here, entry: String(e.id) })}#activity-detail-title`}
                aria-label={t('activityLogs.detailsFor', { event: eventLabel(t, lang, e.action), time: fullTimestamp(e.createdAt, lang) })}
                data-testid="activity-details-link"
              >
                  {t('activityLogs.details')}
                </a>
              ),
            }}
            empty={{
              text: t('activityLogs.emptyFiltered'),
              action: (
                <a className={LINK} href={path}>
                  {t('activityLogs.clear')}
                </a>
              ),
            }}
          />
        )}
        <nav aria-label={t('activityLogs.pages')} className="mt-4 flex gap-6">
          {before && (
            <a className={LINK} href={`${path}${query(f)}`} data-testid="activity-newest">
              {t('activityLogs.newest')}
            </a>
          )}
          {next && (
            <a className={LINK} href={`${path}${query(f, { before: formatCursor(next) })}`} rel="next" data-testid="activity-older">
              {t('activityLogs.older')}
            </a>
          )}
        </nav>
      </Frame>
    ),
  });
}
