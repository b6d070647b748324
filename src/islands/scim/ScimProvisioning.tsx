// The "Provisioning (SCIM)" screen (decision 0040): the SCIM base URL with its copy button, the
// tenant's tokens (made here with a name and a lifetime, a year by default; the secret shown ONCE
// in a dialog with its own copy button; listed with when and from where each was last used;
// revoked after a confirmation), and "apps for provisioned people". The server renders the
// explanation instead when the tenant lacks the SSO subscription SCIM comes with.
import { useRef, useState, type FormEvent } from 'react';
import { api } from '../../shared/api';
import { errorText } from '../../shared/error-codes';
import { getT, type Lang } from '../../shared/i18n';
import { SCIM_TOKEN_LIFETIME_CHOICES, SCIM_TOKEN_LIFETIME_DAYS, type ScimApp, type ScimOverview, type ScimTokenSummary } from '../../shared/scim/schemas';
import { BTN_PRIMARY, BTN_SECONDARY, CARD, ConfirmDialog, INPUT, InlineNotice, TextField, Toast, useToast } from '../kit/admin-parts';
import CopyButton from '../kit/CopyButton';
import { DataTable } from '../kit/DataTable';
import Dialog from '../kit/Dialog';
import RelativeTime from '../kit/RelativeTime';

export interface ScimProvisioningProps {
  lang: Lang;
  basePath: string;
  overview: ScimOverview;
  /** The server's clock, for the first render of relative times. */
  now: number;
}

interface Made {
  token: string;
  summary: ScimTokenSummary;
}

export default function ScimProvisioning(p: ScimProvisioningProps) {
  const t = getT(p.lang);
  const { toast, show, close } = useToast();
  const [tokens, setTokens] = useState(p.overview.tokens);
  const [name, setName] = useState('');
  const [days, setDays] = useState<number>(SCIM_TOKEN_LIFETIME_DAYS.default);
  const [nameError, setNameError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<Made | null>(null);
  const [pendingRevoke, setPendingRevoke] = useState<ScimTokenSummary | null>(null);
  const [apps, setApps] = useState<ScimApp[]>(p.overview.apps);
  const [appsError, setAppsError] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const listHeadingRef = useRef<HTMLHeadingElement>(null);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (name.trim() === '') {
      setNameError(t('validation.required'));
      nameRef.current?.focus();
      return;
    }
    setBusy(true);
    const r = await api<Made & { errors?: Record<string, string[]>; max?: number }>(p.basePath, 'POST', 'admin/scim/tokens', { name: name.trim(), expiresInDays: days });
    setBusy(false);
    if (r.ok) {
      setTokens((list) => [r.data.summary, ...list.filter((x) => x.id !== r.data.summary.id)]);
      setMade({ token: r.data.token, summary: r.data.summary });
      setName('');
      setNameError(null);
      return;
    }
    const field = r.data.errors?.name?.[0] ?? r.data.errors?.expiresInDays?.[0];
    if (field) {
      setNameError(field);
      nameRef.current?.focus();
      return;
    }
    show('error', r.data.message === 'scim-token-limit' ? t('scim.tokens.limit', { max: r.data.max ?? 10 }) : t(errorText(r.data.message)));
  };

  const revoke = async () => {
    const token = pendingRevoke;
    if (!token || busy) return;
    setBusy(true);
    const r = await api(p.basePath, 'DELETE', `admin/scim/tokens/${token.id}`);
    setBusy(false);
    setPendingRevoke(null);
    if (r.ok) {
      setTokens((list) => list.map((x) => (x.id === token.id ? { ...x, state: 'revoked', revokedAt: new Date().toISOString() } : x)));
      show('success', t('scim.tokens.revoked', { name: token.name }));
      return;
    }
    show('error', t(errorText(r.data.message)));
  };

  const saveApps = async (e: FormEvent) => {
    e.preventDefault();
    if (apps.length === 0) {
      setAppsError(t('scim.apps.required'));
      return;
    }
    setBusy(true);
    const r = await api<{ apps: ScimApp[] }>(p.basePath, 'PATCH', 'admin/scim/settings', { apps });
    setBusy(false);
    if (r.ok) {
      setApps(r.data.apps);
      setAppsError(null);
      show('success', t('scim.apps.saved'));
      return;
    }
    show('error', t(errorText(r.data.message)));
  };

  const stateText = (s: ScimTokenSummary) => t(`scim.tokens.state.${s.state}`);
  const when = (v: string | null, testId: string) => (v ? <RelativeTime value={v} now={p.now} lang={p.lang} testId={testId} /> : t('scim.tokens.never'));

  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <section aria-labelledby="scim-url-heading" className={CARD}>
        <h2 id="scim-url-heading" className="m-0 mb-2 text-lg font-semibold">
          {t('scim.url.heading')}
        </h2>
        <p className="m-0 mb-3 text-sm text-slate-800">{t('scim.url.hint')}</p>
        <div className="flex flex-wrap items-center gap-3">
          <code className="break-all rounded bg-slate-100 px-2 py-1" data-testid="scim-base-url">
            {p.overview.baseUrl}
          </code>
          <CopyButton t={t} text={p.overview.baseUrl} label={t('scim.url.copy')} testId="copy-scim-url" />
        </div>
        <p className="m-0 mt-3 text-sm text-slate-800" data-testid="scim-sso-note">
          {t(p.overview.ssoEnabled ? 'scim.url.ssoOn' : 'scim.url.ssoOff')}
        </p>
      </section>

      <section aria-labelledby="scim-create-heading" className={CARD}>
        <h2 id="scim-create-heading" className="m-0 mb-3 text-lg font-semibold">
          {t('scim.tokens.createHeading')}
        </h2>
        <form noValidate onSubmit={create} className="flex flex-col gap-3">
          <TextField
            id="scim-token-name"
            label={t('scim.tokens.name')}
            value={name}
            onChange={(v) => {
              setName(v);
              setNameError(null);
            }}
            error={nameError}
            hint={t('scim.tokens.nameHint')}
            required
            requiredText={t('admin.common.required')}
            autoComplete="off"
            maxLength={100}
            inputRef={nameRef}
            className="max-w-md"
          />
          <div>
            <label htmlFor="scim-token-days" className="font-medium">
              {t('scim.tokens.lifetime')}
            </label>
            <select id="scim-token-days" className={`${INPUT} max-w-xs`} value={days} onChange={(e) => setDays(Number(e.target.value))}>
              {SCIM_TOKEN_LIFETIME_CHOICES.map((d) => (
                <option key={d} value={d}>
                  {t('scim.tokens.days', { days: d })}
                </option>
              ))}
            </select>
          </div>
          <div>
            <button type="submit" className={BTN_PRIMARY} disabled={busy}>
              {t('scim.tokens.create')}
            </button>
          </div>
        </form>
      </section>

      <section aria-labelledby="scim-list-heading">
        <h2 id="scim-list-heading" ref={listHeadingRef} tabIndex={-1} className="m-0 mb-3 text-lg font-semibold outline-none">
          {t('scim.tokens.listHeading')}
        </h2>
        <DataTable<ScimTokenSummary>
          t={t}
          testId="scim-tokens"
          caption={t('scim.tokens.listHeading')}
          columns={[
            { key: 'name', header: t('scim.tokens.colName'), width: 'w-[10rem]', truncate: (x) => x.name, render: (x) => x.name },
            { key: 'state', header: t('scim.tokens.colState'), width: 'w-[6rem]', render: (x) => <span data-testid="scim-token-state">{stateText(x)}</span> },
            { key: 'expires', header: t('scim.tokens.colExpires'), width: 'w-[8rem]', render: (x) => when(x.expiresAt, 'scim-token-expires') },
            { key: 'used', header: t('scim.tokens.colLastUsed'), width: 'w-[8rem]', render: (x) => when(x.lastUsedAt, 'scim-token-used') },
            { key: 'ip', header: t('scim.tokens.colLastIp'), width: 'w-[9rem]', className: 'font-mono', render: (x) => x.lastUsedIp ?? '-' },
            { key: 'by', header: t('scim.tokens.colCreatedBy'), width: 'w-[8rem]', truncate: (x) => x.createdBy ?? t('scim.tokens.byCli'), render: (x) => x.createdBy ?? t('scim.tokens.byCli') },
          ]}
          rows={tokens}
          rowKey={(x) => x.id}
          minWidth="min-w-[44rem]"
          actions={{
            kind: 'buttons',
            header: t('scim.tokens.colActions'),
            width: 'w-[7rem]',
            items: (x) =>
              x.state === 'active' ? [{ label: t('scim.tokens.revoke'), ariaLabel: t('scim.tokens.revokeLabel', { name: x.name }), danger: true, disabled: busy, onSelect: () => setPendingRevoke(x) }] : [],
          }}
          empty={{ text: t('scim.tokens.empty') }}
        />
      </section>

      <section aria-labelledby="scim-apps-heading" className={CARD}>
        <h2 id="scim-apps-heading" className="m-0 mb-2 text-lg font-semibold">
          {t('scim.apps.heading')}
        </h2>
        <p className="m-0 mb-3 text-sm text-slate-800">{t('scim.apps.hint')}</p>
        <form noValidate onSubmit={saveApps}>
          <fieldset className="m-0 border-0 p-0">
            <legend className="sr-only">{t('scim.apps.heading')}</legend>
            {p.overview.contractedApps.map((a) => (
              <label key={a.key} className="mb-2 flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={apps.includes(a.key)}
                  onChange={(e) => {
                    setAppsError(null);
                    setApps((list) => (e.target.checked ? [...list, a.key] : list.filter((x) => x !== a.key)));
                  }}
                  data-testid={`scim-app-${a.key}`}
                />
                <span>
                  {t(`apps.${a.key}`)}{' '}
                  <span className="text-sm text-slate-700">
                    {a.seats === null ? t('scim.apps.unlimited') : t('scim.apps.seats', { free: a.availableSeats ?? 0, seats: a.seats })}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          <InlineNotice kind="error" text={appsError} testId="scim-apps-error" />
          <button type="submit" className={`${BTN_SECONDARY} mt-2`} disabled={busy}>
            {t('admin.common.save')}
          </button>
        </form>
      </section>

      <Dialog open={made !== null} labelledBy="scim-made-title" describedBy="scim-made-text" onDismiss={() => setMade(null)} testId="scim-token-made" returnFocus={() => nameRef.current}>
        <h2 id="scim-made-title" className="m-0 text-lg font-semibold">
          {t('scim.made.title', { name: made?.summary.name ?? '' })}
        </h2>
        <p id="scim-made-text" className="mb-3 mt-3">
          {t('scim.made.once')}
        </p>
        <code className="block break-all rounded bg-slate-100 p-2 font-mono" data-testid="scim-token-secret">
          {made?.token ?? ''}
        </code>
        <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
          <CopyButton t={t} text={made?.token ?? ''} label={t('scim.made.copy')} testId="copy-scim-token" />
          <button type="button" className={BTN_PRIMARY} onClick={() => setMade(null)}>
            {t('scim.made.done')}
          </button>
        </div>
      </Dialog>

      <ConfirmDialog
        open={pendingRevoke !== null}
        id="scim-revoke-confirm"
        title={t('scim.tokens.revokeTitle')}
        text={pendingRevoke ? t('scim.tokens.revokeText', { name: pendingRevoke.name }) : ''}
        confirmLabel={t('scim.tokens.revoke')}
        cancelLabel={t('admin.common.cancel')}
        danger
        busy={busy}
        onConfirm={() => void revoke()}
        onCancel={() => setPendingRevoke(null)}
        returnFocus={() => listHeadingRef.current}
      />
      <Toast t={t} toast={toast} onClose={close} />
    </div>
  );
}
