// IP restriction (spec 02 "IP restriction screen", sections 4, 5 and 8): the enable switch
// (disabled while the list is empty; enabling after a confirmation, disabling without), the
// registered addresses (prefix 32 shown without a suffix) with delete, and the add form
// (four dotted groups with an optional /1-/32, not 127.x; Add disabled while invalid; optional
// description). Server answers: duplicate-ip and non-public addresses on the field,
// cannot-delete, and your-current-ip-address-is-not-whitelisted naming the address. "Add my
// current address" (decision 0033) adds the address this request came from in one step, offered
// when the list does not hold it yet: an IPv4 address itself, an IPv6 address's /64 (decision
// 0045: IPv6 entries /32-/128, non-public ranges refused as IPv4's are).
// Enabling, and deleting an entry while enabled, first show the lock-out preview (decision 0043):
// members whose recent sign-ins all came from outside the new list, and a confirmation naming the count.
import { useRef, useState, type FormEvent } from 'react';
import { ipEntryText, ownAddressEntry, parseIpEntry } from '../../shared/tenant-settings/ip-entry';
import type { LockoutPreview } from '../../shared/tenant-settings/schemas';
import { api, type ApiResult } from '../../shared/api';
import { LockoutDialog, useLockoutPreview } from '../kit/LockoutDialog';
import { getT, type Lang } from '../../shared/i18n';
import { BTN_PRIMARY, BTN_SMALL, CARD, ConfirmDialog, InlineNotice, Switch, TextField, Toast, useToast } from '../kit/admin-parts';
import { DataTable } from '../kit/DataTable';
import { errorText } from '../../shared/error-codes';
import { WhyHint, whyDisabled } from '../kit/why-hint';

export interface WhitelistedIp {
  id: number;
  ip_address: string;
  prefix_length: number;
  description: string | null;
}

export interface IpRestrictionProps {
  lang: Lang;
  basePath: string;
  enabled: boolean;
  entries: WhitelistedIp[];
  /** The address this request came from, as the server sees it. */
  currentIp: string | null;
}

export const ipText = ipEntryText;

const NOT_PUBLIC = 'The ip address must be a public IP address.';

export default function IpRestriction(p: IpRestrictionProps) {
  const t = getT(p.lang);
  const { toast, show, close } = useToast();
  const [entries, setEntries] = useState(p.entries);
  const [enabled, setEnabled] = useState(p.enabled);
  const [ip, setIp] = useState('');
  const [description, setDescription] = useState('');
  const [touched, setTouched] = useState(false);
  const [ipServerError, setIpServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pendingDelete, setPendingDelete] = useState<WhitelistedIp | null>(null);
  const [switchError, setSwitchError] = useState<string | null>(null);
  const ipRef = useRef<HTMLInputElement>(null);
  const listHeadingRef = useRef<HTMLHeadingElement>(null);

  const parsed = parseIpEntry(ip);
  const problems = { invalid: 'admin.ip.invalid', local: 'admin.ip.local', 'not-public': 'ipRestriction.notPublic', mapped: 'admin.ip.mapped' } as const;
  const clientError = ip.trim() === '' ? t('admin.ip.required') : typeof parsed === 'string' ? t(problems[parsed]) : null;
  const ipError = ipServerError ?? (touched ? clientError : null);

  // IPv4: the address itself; IPv6: its /64 (decision 0045).
  const mine = ownAddressEntry(p.currentIp);
  const canAddMine = mine !== null && !entries.some((e) => e.ip_address === mine.ipAddress && e.prefix_length === mine.prefixLength);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (typeof parsed !== 'object' || busy) {
      ipRef.current?.focus();
      return;
    }
    await post(parsed, description.trim() || null, true);
  };

  /** Adds an entry; `fromForm`: the form's field shows the server's refusal, else a toast. */
  const post = async (entry: { ipAddress: string; prefixLength: number }, note: string | null, fromForm: boolean) => {
    setBusy(true);
    const r = await api<WhitelistedIp>(p.basePath, 'POST', 'admin/whitelisted-ips', { ipAddress: entry.ipAddress, prefixLength: entry.prefixLength, description: note });
    setBusy(false);
    if (r.ok) {
      setEntries((list) => [...list, r.data]);
      setIp('');
      setDescription('');
      setTouched(false);
      setSwitchError(null);
      show('success', t('ipRestriction.added'));
      ipRef.current?.focus();
      return;
    }
    if (r.data.message === 'duplicate-ip' || r.data.message === NOT_PUBLIC) {
      const text = t(r.data.message === 'duplicate-ip' ? 'ipRestriction.duplicate' : 'ipRestriction.notPublic');
      if (!fromForm) return show('error', text);
      setIpServerError(text);
      ipRef.current?.focus();
      return;
    }
    show('error', t('errors.generic'));
  };

  const removed = (entry: WhitelistedIp, r: ApiResult) => {
    if (r.ok) {
      setEntries((list) => list.filter((x) => x.id !== entry.id));
      show('success', t('ipRestriction.deleted'));
      return;
    }
    show('error', t(errorText(r.data.message)));
  };

  const remove = async () => {
    const entry = pendingDelete;
    if (!entry || busy) return;
    setBusy(true);
    const r = await api(p.basePath, 'DELETE', `admin/whitelisted-ips/${entry.id}`);
    setBusy(false);
    setPendingDelete(null);
    removed(entry, r);
  };

  const switched = (on: boolean, r: ApiResult<{ ipAddress?: string }>) => {
    if (r.ok) {
      setEnabled(on);
      show('success', t(on ? 'ipRestriction.enabled' : 'ipRestriction.disabled'));
      return;
    }
    if (r.data.message === 'your-current-ip-address-is-not-whitelisted') {
      setSwitchError(t('ipRestriction.notWhitelisted', { ip: r.data.ipAddress ?? p.currentIp ?? '?' }));
      return;
    }
    show('error', t('errors.generic'));
  };

  const setRestriction = async (on: boolean) => {
    setBusy(true);
    setSwitchError(null);
    const r = await api<{ ipAddress?: string }>(p.basePath, 'PATCH', on ? 'admin/enable-ip-restriction' : 'admin/disable-ip-restriction');
    setBusy(false);
    switched(on, r);
  };

  // Enabling, and removing an entry while enabled, can keep members out: the preview first,
  // and the save carries the count confirmed (decision 0043).
  const enableLockout = useLockoutPreview(
    () => api<LockoutPreview>(p.basePath, 'POST', 'admin/lockout-preview', { kind: 'ip-enable' }),
    (n) => {
      setSwitchError(null);
      return api(p.basePath, 'PATCH', `admin/enable-ip-restriction?confirmAffected=${n}`);
    },
    (r) => switched(true, r as ApiResult<{ ipAddress?: string }>),
  );
  const deleting = useRef<WhitelistedIp | null>(null);
  const deleteLockout = useLockoutPreview(
    () => api<LockoutPreview>(p.basePath, 'POST', 'admin/lockout-preview', { kind: 'ip-delete', id: deleting.current!.id }),
    (n) => api(p.basePath, 'DELETE', `admin/whitelisted-ips/${deleting.current!.id}?confirmAffected=${n}`),
    (r) => removed(deleting.current!, r),
  );
  const askDelete = (e: WhitelistedIp) => {
    if (!enabled) return setPendingDelete(e);
    deleting.current = e;
    deleteLockout.open();
  };

  const switchDisabled = busy || (entries.length === 0 && !enabled);
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <section aria-labelledby="ip-switch-heading" className={CARD}>
        <h2 id="ip-switch-heading" className="sr-only">
          {t('ipRestriction.switchLabel')}
        </h2>
        <InlineNotice kind="error" text={switchError} testId="ip-switch-error" />
        <Switch
          id="ip-restriction-switch"
          label={t('ipRestriction.switchLabel')}
          checked={enabled}
          disabled={switchDisabled}
          onText={t('ipRestriction.on')}
          offText={t('ipRestriction.off')}
          describedBy={entries.length === 0 && !enabled ? 'ip-switch-hint' : undefined}
          onToggle={() => {
            if (enabled) void setRestriction(false);
            else enableLockout.open();
          }}
        />
        {entries.length === 0 && !enabled && (
          <p id="ip-switch-hint" className="m-0 mt-2 text-sm text-slate-700">
            {t('ipRestriction.switchHintEmpty')}
          </p>
        )}
        <p className="m-0 mt-3 text-sm text-slate-800" data-testid="current-ip">
          {p.currentIp ? t('ipRestriction.currentIp', { ip: p.currentIp }) : t('ipRestriction.currentIpUnknown')}
        </p>
        {canAddMine && (
          <button type="button" className={`${BTN_SMALL} mt-2`} disabled={busy} onClick={() => void post(mine, t('ipRestriction.mineDescription'), false)} data-testid="add-current-ip">
            {t('ipRestriction.addMine', { ip: ipEntryText({ ip_address: mine.ipAddress, prefix_length: mine.prefixLength }) })}
          </button>
        )}
      </section>

      <section aria-labelledby="ip-add-heading" className={CARD}>
        <h2 id="ip-add-heading" className="m-0 mb-3 text-lg font-semibold">
          {t('ipRestriction.addHeading')}
        </h2>
        <form noValidate onSubmit={add} className="flex flex-col gap-3">
          <TextField
            id="ip-address"
            label={t('ipRestriction.ipLabel')}
            value={ip}
            onChange={(v) => {
              setIp(v);
              setIpServerError(null);
            }}
            onBlur={() => ip !== '' && setTouched(true)}
            error={ipError}
            hint={t('ipRestriction.ipHint')}
            required
            requiredText={t('admin.common.required')}
            autoComplete="off"
            maxLength={49}
            inputRef={ipRef}
            className="max-w-xs"
          />
          <TextField
            id="ip-description"
            label={t('ipRestriction.descriptionLabel')}
            value={description}
            onChange={setDescription}
            autoComplete="off"
            maxLength={255}
          />
          <div>
            <button type="submit" className={BTN_PRIMARY} {...whyDisabled('ip-add-why', typeof parsed !== 'object' && t('ipRestriction.addHint'), busy)}>
              {t('ipRestriction.add')}
            </button>
            <WhyHint id="ip-add-why" reason={typeof parsed !== 'object' && t('ipRestriction.addHint')} busy={busy} className="mt-1" />
          </div>
        </form>
      </section>

      <section aria-labelledby="ip-list-heading">
        <h2 id="ip-list-heading" ref={listHeadingRef} tabIndex={-1} className="m-0 mb-3 text-lg font-semibold outline-none">
          {t('ipRestriction.listHeading')}
        </h2>
        <DataTable<WhitelistedIp>
          t={t}
          testId="ip-list"
          caption={t('ipRestriction.listHeading')}
          columns={[
            { key: 'ip', header: t('ipRestriction.colIp'), width: 'w-[16rem]', className: 'font-mono break-all', render: (e) => ipText(e) },
            { key: 'description', header: t('ipRestriction.colDescription'), truncate: (e) => e.description ?? '', render: (e) => e.description ?? '' },
          ]}
          rows={entries}
          rowKey={(e) => e.id}
          minWidth="min-w-[30rem]"
          actions={{
            kind: 'buttons',
            header: t('ipRestriction.colActions'),
            width: 'w-[7rem]',
            items: (e) => [{ label: t('admin.common.delete'), ariaLabel: t('ipRestriction.deleteLabel', { ip: ipText(e) }), danger: true, disabled: busy, onSelect: () => askDelete(e) }],
          }}
          empty={{ text: t('ipRestriction.empty') }}
        />
      </section>

      <LockoutDialog t={t} id="ip-enable-confirm" title={t('ipRestriction.confirmTitle')} state={enableLockout} nobodyLabel={t('ipRestriction.enable')} />
      <LockoutDialog
        t={t}
        id="ip-delete-lockout"
        title={t('ipRestriction.deleteTitle')}
        state={deleteLockout}
        nobodyLabel={t('admin.common.delete')}
        returnFocus={() => (document.activeElement && document.activeElement !== document.body ? null : listHeadingRef.current)}
      />
      <ConfirmDialog
        open={pendingDelete !== null}
        id="ip-delete-confirm"
        title={t('ipRestriction.deleteTitle')}
        text={pendingDelete ? t('ipRestriction.deleteText', { ip: ipText(pendingDelete) }) : ''}
        confirmLabel={t('admin.common.delete')}
        cancelLabel={t('admin.common.cancel')}
        danger
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setPendingDelete(null)}
        // The row (and its button) may be gone: the list heading takes the focus.
        returnFocus={() => (document.activeElement && document.activeElement !== document.body ? null : listHeadingRef.current)}
      />
      <Toast t={t} toast={toast} onClose={close} />
    </div>
  );
}
