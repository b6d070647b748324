// Subscriptions (spec 02 "Subscriptions screen", sections 3, 4 and 9): trial or contract dates and
// every feature line with its limit and usage, rendered on the server (nothing on it changes in the
// browser). A failure to read the contract details is ignored silently: the page shows without them.
// During a trial the days left are shown, and a feature the tenant has not subscribed to reads as
// available during the trial (spec 02 section 9: the trial has every feature; decision 0033).
import { getContractDetails } from '../../domain/billing/contract';
import { contractState, featureLines, formatContractDate, formatCount, overLimit, trialDaysLeft, type ContractDetails, type FeatureLine } from '../../shared/billing/contract';
import { SERVER_TIME_ZONE } from '../../shared/dates';
import type { Lang, T } from '../../shared/i18n';
import { Frame } from '../../ui/Frame';
import type { TenantCtx } from '../http/env';
import { loadFrame } from '../http/frame-data';
import { AdminHeading } from '../http/admin-parts';
import { renderPage } from '../http/page';

function planText(t: T, lang: Lang, line: FeatureLine, trial: boolean): string {
  if (!line.subscribed) return t(trial ? 'subscriptions.trialAvailable' : 'subscriptions.notSubscribed');
  if (line.kind === 'flag') return t('subscriptions.subscribed');
  if (line.limit === null) return t('subscriptions.unlimited');
  const n = formatCount(line.limit, lang);
  return t(line.kind === 'bulkEmail' ? 'subscriptions.bulkLimit' : line.kind === 'keys' ? 'subscriptions.keysLimit' : 'subscriptions.usersLimit', { n });
}

function usageText(t: T, lang: Lang, line: FeatureLine): string {
  if (line.kind === 'flag' || !line.subscribed) return t('subscriptions.none');
  const n = formatCount(line.used, lang);
  return t(line.kind === 'bulkEmail' ? 'subscriptions.bulkUsed' : line.kind === 'keys' ? 'subscriptions.keysUsed' : 'subscriptions.usersUsed', { n });
}

function DateRow({ label, iso, testId }: { label: string; iso: string | null; testId: string }) {
  if (!iso) return null;
  return (
    <div className="grid grid-cols-[10rem_1fr] gap-2 py-1">
      <dt className="text-slate-700">{label}</dt>
      <dd className="m-0" data-testid={testId}>
        <time dateTime={iso}>{formatContractDate(iso, SERVER_TIME_ZONE)}</time>
      </dd>
    </div>
  );
}

/** Usage over a plan's limit, each line saying what it means and what to do (issue 27 part 7). */
function OverLimit({ t, lang, d, base }: { t: T; lang: Lang; d: ContractDetails; base: string }) {
  const over = overLimit(featureLines(d));
  if (over.length === 0) return null;
  return (
    <section aria-labelledby="over-limit-heading" className="mb-6 max-w-3xl rounded-lg border border-amber-700 bg-amber-50 p-4 text-amber-950" data-testid="over-limit">
      <h2 id="over-limit-heading" className="m-0 mb-2 text-lg font-semibold">
        {t('subscriptions.overLimit.heading')}
      </h2>
      <ul className="m-0 mb-2 pl-5">
        {over.map((o) => (
          <li key={o.key} data-feature={o.key}>
            {t(`subscriptions.overLimit.${o.kind}`, { feature: t(`subscriptions.feature.${o.key}`), used: formatCount(o.used, lang), limit: formatCount(o.limit, lang), over: formatCount(o.used - o.limit, lang) })}
          </li>
        ))}
      </ul>
      <p className="m-0">
        {t('subscriptions.overLimit.action')}{' '}
        <a className="text-blue-800 underline" href={`${base}/admin/get-more-services`}>
          {t('subscriptions.more')}
        </a>
        {' / '}
        <a className="text-blue-800 underline" href={`${base}/admin/users`}>
          {t('subscriptions.overLimit.reviewUsers')}
        </a>
      </p>
    </section>
  );
}

function Contract({ t, lang, d, now, base }: { t: T; lang: Lang; d: ContractDetails; now: number; base: string }) {
  const state = contractState(d, now);
  const daysLeft = trialDaysLeft(d, now);
  const showTrial = state === 'trial' || state === 'trial-ended';
  const badge = state === 'contract' ? 'bg-green-100 text-green-900' : state === 'trial' ? 'bg-blue-100 text-blue-900' : 'bg-amber-100 text-amber-950';
  return (
    <>
      <OverLimit t={t} lang={lang} d={d} base={base} />
      <section aria-labelledby="contract-heading" className="mb-6 max-w-3xl rounded-lg bg-white p-4 shadow">
        <h2 id="contract-heading" className="m-0 mb-3 text-lg font-semibold">
          {t('subscriptions.contractHeading')}
        </h2>
        <p className={`m-0 mb-3 inline-block rounded px-2 py-0.5 font-medium ${badge}`} data-testid="contract-state">
          {t(`subscriptions.state.${state}`)}
        </p>
        <dl className="m-0">
          {showTrial && <DateRow label={t('subscriptions.trialEndsAt')} iso={d.trial_ends_at} testId="trial-ends-at" />}
          {!showTrial && (
            <>
              <DateRow label={t('subscriptions.contractStartsAt')} iso={d.contract_starts_at} testId="contract-starts-at" />
              <DateRow label={t('subscriptions.contractEndsAt')} iso={d.contract_ends_at} testId="contract-ends-at" />
              <DateRow label={t('subscriptions.contractRenewsAt')} iso={d.contract_renews_at} testId="contract-renews-at" />
            </>
          )}
        </dl>
        {daysLeft !== null && (
          <p className="mb-0 mt-3 font-medium" data-testid="trial-days-left">
            {t('subscriptions.trialDaysLeft', { days: daysLeft })}
          </p>
        )}
        {state === 'trial' && <p className="mb-0 mt-3 text-slate-800">{t('subscriptions.trialNote')}</p>}
      </section>
      <section aria-labelledby="features-heading" className="max-w-3xl">
        <h2 id="features-heading" className="m-0 mb-3 text-lg font-semibold">
          {t('subscriptions.featuresHeading')}
        </h2>
        <div className="overflow-x-auto rounded-lg bg-white shadow">
          <table className="w-full border-collapse text-left" aria-labelledby="features-heading" data-testid="features">
            <thead className="bg-slate-100 text-sm">
              <tr>
                <th scope="col" className="px-4 py-2 font-semibold">
                  {t('subscriptions.colFeature')}
                </th>
                <th scope="col" className="px-4 py-2 font-semibold">
                  {t('subscriptions.colPlan')}
                </th>
                <th scope="col" className="px-4 py-2 font-semibold">
                  {t('subscriptions.colUsage')}
                </th>
              </tr>
            </thead>
            <tbody>
              {featureLines(d).map((line) => (
                <tr key={line.key} className="border-t border-slate-200" data-feature={line.key}>
                  <th scope="row" className="px-4 py-2 text-left font-medium">
                    {t(`subscriptions.feature.${line.key}`)}
                  </th>
                  <td className={`px-4 py-2 ${line.subscribed || state === 'trial' ? '' : 'text-slate-700'}`}>{planText(t, lang, line, state === 'trial')}</td>
                  <td className="px-4 py-2">{usageText(t, lang, line)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}

export async function subscriptionsPage(c: TenantCtx) {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const base = deps.config.BASE_PATH;
  const { data } = await loadFrame(c, c.get('user'));
  const details = await getContractDetails(scope).catch(() => null);
  return renderPage(c, {
    titleKey: 'titles.subscriptions',
    body: (
      <Frame data={data}>
        <AdminHeading t={t} titleKey="titles.subscriptions" />
        {details && <Contract t={t} lang={lang} d={details} now={deps.clock.now()} base={base} />}
        <p className="mt-6">
          <a className="text-blue-800 underline" href={`${base}/admin/get-more-services`}>
            {t('subscriptions.more')}
          </a>
        </p>
      </Frame>
    ),
  });
}
