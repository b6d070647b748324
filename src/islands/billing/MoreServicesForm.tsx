// Get more services (spec 02 sections 5, 7, 8 and 9): each option toggled by a checkbox; counts
// are whole numbers from '0'; the bulk-email plans offered are those above the current limit (the
// option is gone at 700,000). Send is disabled when nothing is selected, or when every selected
// count is '0' and no other option is selected. POST admin/get-more-services with [{key, value}];
// on success "the sales team will get in touch", the form resets and the contract reloads.
import { useState, type FormEvent } from 'react';
import { api } from '../../shared/api';
import { formatCount, higherBulkEmailPlans, type ContractDetails } from '../../shared/billing/contract';
import { getT, type Lang } from '../../shared/i18n';
import { BTN_PRIMARY, CARD, Toast, useToast } from '../kit/admin-parts';
import { COUNT_KEYS, FLAG_KEYS } from '../../shared/billing/schemas';

type CountKey = (typeof COUNT_KEYS)[number];
type FlagKey = (typeof FLAG_KEYS)[number];
const PLAN_KEY = 'subscribeToHigherBulkEmailPlan';
type OptionKey = CountKey | FlagKey | typeof PLAN_KEY;

/** The options in the order the form lists them. */
const OPTIONS: OptionKey[] = [
  'addMeishiUsers',
  'addSchedulerUsers',
  'addMeishiBnUsers',
  PLAN_KEY,
  'subscribeToKintone',
  'subscribeToSalesforce',
  'subscribeToRelation',
  'subscribeToGeniee',
  'subscribeToSSO',
  'addSsoUsers',
  'subscribeToIpRestriction',
  'addScannerKeys',
];

const isCount = (k: OptionKey): k is CountKey => (COUNT_KEYS as readonly string[]).includes(k);
const MAX_COUNT = 100_000;

/** A count as typed: a whole number 0..100000, or null. */
export function readCount(value: string): number | null {
  const v = value.trim();
  if (!/^\d{1,6}$/.test(v)) return null;
  const n = Number(v);
  return n <= MAX_COUNT ? n : null;
}

/** Options already in the contract are not offered again; the plan only above the current limit. */
function offered(contract: ContractDetails | null): OptionKey[] {
  const has: Partial<Record<OptionKey, boolean>> = contract
    ? {
        subscribeToKintone: contract.is_feature_kintone_subscribed,
        subscribeToSalesforce: contract.is_feature_salesforce_subscribed,
        subscribeToRelation: contract.is_feature_relation_subscribed,
        subscribeToGeniee: contract.is_feature_geniee_subscribed,
        subscribeToSSO: contract.feature_sso_users_limit === null || contract.feature_sso_users_limit >= 1,
        subscribeToIpRestriction: contract.is_feature_ip_restriction_subscribed,
      }
    : {};
  const plans = higherBulkEmailPlans(contract?.feature_bulk_email_monthly_limit ?? 0);
  return OPTIONS.filter((k) => !has[k] && (k !== PLAN_KEY || plans.length > 0));
}

const NONE_SELECTED = Object.fromEntries(OPTIONS.map((k) => [k, false])) as Record<OptionKey, boolean>;
const ZERO_COUNTS = Object.fromEntries(COUNT_KEYS.map((k) => [k, '0'])) as Record<CountKey, string>;

export interface MoreServicesFormProps {
  lang: Lang;
  basePath: string;
  /** GET admin/contract-details, or null when it could not be read. */
  contract: ContractDetails | null;
}

export default function MoreServicesForm(p: MoreServicesFormProps) {
  const t = getT(p.lang);
  const { toast, show, close } = useToast();
  const [contract, setContract] = useState(p.contract);
  const [selected, setSelected] = useState(NONE_SELECTED);
  const [counts, setCounts] = useState(ZERO_COUNTS);
  const currentLimit = contract?.feature_bulk_email_monthly_limit ?? 0;
  const plans = higherBulkEmailPlans(currentLimit);
  const [plan, setPlan] = useState<number | null>(plans[0] ?? null);
  const [busy, setBusy] = useState(false);

  const options = offered(contract);
  const chosen = options.filter((k) => selected[k]);
  const countsValid = chosen.every((k) => !isCount(k) || readCount(counts[k]) !== null);
  const meaningful = chosen.some((k) => (isCount(k) ? (readCount(counts[k]) ?? 0) > 0 : k === PLAN_KEY ? plan !== null : true));
  const canSend = chosen.length > 0 && countsValid && meaningful && !busy;

  const reset = (c: ContractDetails | null) => {
    setSelected(NONE_SELECTED);
    setCounts(ZERO_COUNTS);
    setPlan(higherBulkEmailPlans(c?.feature_bulk_email_monthly_limit ?? 0)[0] ?? null);
  };

  const send = async (e: FormEvent) => {
    e.preventDefault();
    if (!canSend) return;
    const items = chosen.map((k) => (isCount(k) ? { key: k, value: readCount(counts[k])! } : k === PLAN_KEY ? { key: k, value: plan! } : { key: k, value: true }));
    setBusy(true);
    const r = await api(p.basePath, 'POST', 'admin/get-more-services', items);
    if (!r.ok) {
      setBusy(false);
      show('error', t('errors.generic'));
      return;
    }
    show('success', t('moreServices.sent'));
    const fresh = await api<ContractDetails>(p.basePath, 'GET', 'admin/contract-details');
    const next = fresh.ok ? fresh.data : contract;
    if (fresh.ok) setContract(fresh.data);
    reset(next);
    setBusy(false);
  };

  const check = 'h-5 w-5 accent-blue-800';
  return (
    <div className={`${CARD} max-w-3xl`}>
      <form noValidate onSubmit={send} className="flex flex-col gap-4">
        <fieldset className="m-0 border-0 p-0">
          <legend className="mb-3 p-0 font-semibold">{t('moreServices.legend')}</legend>
          <ul className="m-0 flex list-none flex-col gap-3 p-0">
            {options.map((k) => {
              const id = `more-${k}`;
              const on = selected[k];
              const countValue = isCount(k) ? counts[k] : '';
              const countError = isCount(k) && on && readCount(countValue) === null ? t('moreServices.countInvalid') : null;
              return (
                <li key={k} className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-slate-200 pb-3 last:border-b-0">
                  <label htmlFor={id} id={`${id}-label`} className="flex items-center gap-2 sm:min-w-[20rem]">
                    <input
                      id={id}
                      type="checkbox"
                      className={check}
                      checked={on}
                      onChange={(e) => {
                        const v = e.target.checked;
                        setSelected((s) => ({ ...s, [k]: v }));
                      }}
                    />
                    {t(`moreServices.option.${k}`)}
                  </label>
                  {isCount(k) && (
                    <div className="flex items-center gap-2">
                      <label htmlFor={`${id}-count`} id={`${id}-count-label`} className="text-sm">
                        {t('moreServices.count')}
                      </label>
                      <input
                        id={`${id}-count`}
                        type="number"
                        inputMode="numeric"
                        min={0}
                        max={MAX_COUNT}
                        step={1}
                        value={countValue}
                        disabled={!on}
                        aria-labelledby={`${id}-label ${id}-count-label`}
                        aria-invalid={countError ? true : undefined}
                        aria-describedby={countError ? `${id}-count-error` : undefined}
                        onChange={(e) => {
                          const v = e.target.value;
                          setCounts((c) => ({ ...c, [k]: v }));
                        }}
                        className="w-28 rounded border border-slate-500 px-2 py-1 text-base disabled:bg-slate-100 disabled:text-slate-700"
                      />
                      {countError && (
                        <p id={`${id}-count-error`} className="m-0 text-sm text-red-800">
                          {countError}
                        </p>
                      )}
                    </div>
                  )}
                  {k === PLAN_KEY && (
                    <div className="flex flex-wrap items-center gap-2">
                      <label htmlFor={`${id}-plan`} id={`${id}-plan-label`} className="text-sm">
                        {t('moreServices.plan')}
                      </label>
                      <select
                        id={`${id}-plan`}
                        value={plan ?? ''}
                        disabled={!on}
                        aria-labelledby={`${id}-label ${id}-plan-label`}
                        aria-describedby={`${id}-current`}
                        onChange={(e) => setPlan(Number(e.target.value))}
                        className="rounded border border-slate-500 bg-white px-2 py-1 text-base disabled:bg-slate-100 disabled:text-slate-700"
                      >
                        {plans.map((n) => (
                          <option key={n} value={n}>
                            {t('moreServices.planOption', { n: formatCount(n, p.lang) })}
                          </option>
                        ))}
                      </select>
                      <span id={`${id}-current`} className="text-sm text-slate-700">
                        {currentLimit > 0 ? t('moreServices.currentPlan', { n: formatCount(currentLimit, p.lang) }) : t('moreServices.currentPlanNone')}
                      </span>
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        </fieldset>
        <p id="more-services-hint" className="m-0 text-sm text-slate-700">
          {t('moreServices.selectHint')}
        </p>
        <div>
          <button type="submit" className={BTN_PRIMARY} disabled={!canSend} aria-describedby="more-services-hint">
            {t('moreServices.send')}
          </button>
        </div>
      </form>
      <Toast t={t} toast={toast} onClose={close} />
    </div>
  );
}
