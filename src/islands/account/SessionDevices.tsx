// Session devices on my-account (spec 01 "Session devices"): the current session and the others,
// each with device, OS, browser, location and last activity; log out one device or all others
// (after a confirmation), then the list is fetched again. A session a tenant's IdP made lists and
// ends only that tenant's sessions and says so (decision 0035).
import { useRef, useState } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang, type T } from '../../shared/i18n';
import Dialog from '../kit/Dialog';
import { DataTable } from '../kit/DataTable';
import RelativeTime, { fullTimestamp } from '../kit/RelativeTime';

/** One row of GET session-devices (src/domain/account/devices.ts deviceView). */
export interface SessionDevice {
  id: string;
  agent: { device: string | null; os: string | null; browser: string | null; isNextaMeishiApp: boolean };
  location: { countryCode: string | null; city: string | null; state: string | null; country: string | null };
  lastActivity: string;
}

/** A browser remembered after a two-factor code (src/domain/account/devices.ts listRememberedDevices). */
export interface RememberedDevice {
  id: string;
  agent: { device: string | null; os: string | null; browser: string | null };
  rememberedAt: string;
  expiresAt: string;
  thisBrowser: boolean;
}

export interface SessionDeviceList {
  /** Whom this session speaks for: every session of the person, or its tenant's only. */
  scope: 'person' | 'tenant';
  currentSession: SessionDevice;
  otherSessions: SessionDevice[];
  rememberedDevices: RememberedDevice[];
}

export interface SessionDevicesProps {
  lang: Lang;
  basePath: string;
  devices: SessionDeviceList;
  /** Two-factor is on: the remembered-devices part shows even when the list is empty. */
  twofaEnabled: boolean;
  /** The server's clock when it rendered the page ("5 minutes ago" must match on hydration). */
  now: number;
  /** The tenant whose sessions a tenant-scoped list shows. */
  tenantName: string | null;
}

type Pending = { kind: 'one'; device: SessionDevice } | { kind: 'others' } | { kind: 'forget'; device: RememberedDevice };
type Notice = { kind: 'success' | 'error'; text: string };

const DONE = { one: 'devices.loggedOut', others: 'devices.loggedOutOthers', forget: 'devices.forgotten' } as const;
const CONFIRM_TITLE = { one: 'devices.confirmLogoutTitle', others: 'devices.confirmLogoutOthersTitle', forget: 'devices.confirmForgetTitle' } as const;
const CONFIRM_ACTION = { one: 'devices.logout', others: 'devices.logoutOthers', forget: 'devices.forget' } as const;

const DEVICE_TYPES = ['desktop', 'mobile', 'tablet', 'console', 'smarttv', 'wearable', 'embedded'];

function deviceName(t: T, d: { agent: { device: string | null } }): string {
  const device = d.agent.device;
  if (!device) return t('devices.unknown');
  return DEVICE_TYPES.includes(device) ? t(`devices.type.${device}`) : device;
}

function summary(t: T, d: { agent: { os: string | null; browser: string | null } }): string {
  return t('devices.summary', { browser: d.agent.browser ?? t('devices.unknown'), os: d.agent.os ?? t('devices.unknown') });
}

function place(t: T, d: SessionDevice): string {
  const parts = [d.location.city, d.location.state, d.location.country].filter((p): p is string => Boolean(p));
  // "Tokyo, Tokyo, Japan" reads oddly: a state equal to its city is said once.
  const unique = parts.filter((p, i) => parts.indexOf(p) === i);
  return unique.length ? unique.join(', ') : t('devices.unknown');
}

type DeviceRow = SessionDevice & { current: boolean };

function deviceLabel(t: T, d: SessionDevice | RememberedDevice): string {
  return `${deviceName(t, d)} ${summary(t, d)}`;
}

export default function SessionDevices(p: SessionDevicesProps) {
  const { lang, basePath, devices: initial, twofaEnabled } = p;
  const t = getT(lang);
  const [devices, setDevices] = useState<SessionDeviceList>(initial);
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  // After a logout the button that opened the dialog may be gone: the section heading takes the focus.
  const focusHeading = useRef(false);

  const refresh = async () => {
    const r = await api<SessionDeviceList>(basePath, 'GET', 'session-devices');
    if (r.ok) setDevices({ scope: r.data.scope, currentSession: r.data.currentSession, otherSessions: r.data.otherSessions, rememberedDevices: r.data.rememberedDevices });
    return r;
  };

  const confirm = async () => {
    if (!pending || busy) return;
    setBusy(true);
    const r =
      pending.kind === 'one'
        ? await api(basePath, 'POST', `session-devices/${encodeURIComponent(pending.device.id)}/logout`)
        : pending.kind === 'forget'
          ? await api(basePath, 'DELETE', `session-devices/remembered/${encodeURIComponent(pending.device.id)}`)
          : await api(basePath, 'POST', 'session-devices/logout-others');
    // This session itself has ended meanwhile: the page guard sends the browser to login.
    if (r.status === 401) return window.location.reload();
    // Already forgotten (another tab, or it expired): the refreshed list says the rest.
    if (r.ok || (pending.kind === 'forget' && r.status === 404)) setNotice({ kind: 'success', text: t(DONE[pending.kind]) });
    else setNotice({ kind: 'error', text: t('errors.generic') });
    const list = await refresh();
    if (!list.ok && list.status === 401) return window.location.reload();
    setBusy(false);
    focusHeading.current = true;
    setPending(null);
  };

  const others = devices.otherSessions;
  const remembered = devices.rememberedDevices;
  const tenantScope = devices.scope === 'tenant';
  const confirmText = (what: Pending) =>
    what.kind === 'one'
      ? t('devices.confirmLogoutText', { device: deviceLabel(t, what.device) })
      : what.kind === 'forget'
        ? t('devices.confirmForgetText', { device: `${deviceName(t, what.device)} ${summary(t, what.device)}` })
        : tenantScope
          ? t('devices.confirmLogoutOthersTenantText', { tenant: p.tenantName ?? '' })
          : t('devices.confirmLogoutOthersText');
  const danger =
    'rounded border border-red-800 bg-white px-3 py-1.5 text-sm text-red-800 hover:bg-red-50 disabled:cursor-not-allowed disabled:border-slate-400 disabled:text-slate-700';
  const card = 'rounded-lg bg-white p-4 shadow';
  return (
    <section aria-labelledby="session-devices-heading" className="mt-8 max-w-4xl" data-testid="session-devices">
      <h2 id="session-devices-heading" ref={headingRef} tabIndex={-1} className="m-0 text-xl font-semibold outline-none">
        {t('devices.heading')}
      </h2>
      {tenantScope && (
        <p className="m-0 mt-2 max-w-3xl text-slate-800" data-testid="devices-tenant-scope">
          {t('devices.tenantScope', { tenant: p.tenantName ?? '' })}
        </p>
      )}
      <div aria-live="polite" className="mt-2">
        {notice && (
          <p
            role={notice.kind === 'error' ? 'alert' : 'status'}
            className={`m-0 rounded border p-3 ${notice.kind === 'error' ? 'border-red-700 bg-red-50 text-red-900' : 'border-green-700 bg-green-50 text-green-900'}`}
            data-testid="devices-notice"
          >
            {notice.text}
          </p>
        )}
      </div>

      {/* This device first (marked, without a log-out: the toolbar's Logout is for it), then the others. */}
      <div className="mt-4">
        <DataTable<DeviceRow>
          t={t}
          testId="devices-table"
          caption={t('devices.heading')}
          columns={[
            {
              key: 'device',
              header: t('devices.device'),
              compact: 'title',
              render: (d) => (
                <span className="flex flex-wrap items-center gap-1">
                  <span data-testid="device-name">{deviceName(t, d)}</span>
                  {d.current && (
                    <span className="rounded bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900" data-testid="current-device-badge">
                      {t('devices.current')}
                    </span>
                  )}
                  {d.agent.isNextaMeishiApp && (
                    <span className="rounded bg-blue-100 px-2 py-0.5 text-xs text-blue-900" data-testid="meishi-app-badge">
                      {t('devices.app')}
                    </span>
                  )}
                </span>
              ),
            },
            { key: 'os', header: t('devices.os'), width: 'w-[7rem]', truncate: (d) => d.agent.os ?? t('devices.unknown'), render: (d) => d.agent.os ?? t('devices.unknown') },
            { key: 'browser', header: t('devices.browser'), width: 'w-[8rem]', truncate: (d) => d.agent.browser ?? t('devices.unknown'), render: (d) => d.agent.browser ?? t('devices.unknown') },
            { key: 'location', header: t('devices.location'), width: 'w-[8rem]', truncate: (d) => place(t, d), render: (d) => place(t, d) },
            {
              key: 'last',
              header: t('devices.lastActivity'),
              width: 'w-[8rem]',
              compact: 'subtitle',
              render: (d) => <RelativeTime value={d.lastActivity} now={p.now} lang={lang} testId="device-last-activity" />,
            },
          ]}
          rows={[{ ...devices.currentSession, current: true }, ...others.map((d) => ({ ...d, current: false }))]}
          rowKey={(d) => d.id}
          rowAttrs={(d) => ({ 'data-testid': d.current ? 'current-device' : 'other-device' })}
          minWidth="min-w-[40rem]"
          detailsLabel={(d) => deviceLabel(t, d)}
          actions={{
            kind: 'buttons',
            header: t('devices.actions'),
            width: 'w-[7.5rem]',
            items: (d) =>
              d.current
                ? []
                : [
                    {
                      label: t('devices.logout'),
                      // A name of its own per device (the toolbar's user menu has a "log out" too).
                      ariaLabel: t('devices.logoutDevice', { device: deviceLabel(t, d) }),
                      danger: true,
                      disabled: busy,
                      onSelect: () => {
                        setNotice(null);
                        setPending({ kind: 'one', device: d });
                      },
                    },
                  ],
          }}
          empty={{ text: t('devices.none') }}
        />
      </div>
      {others.length === 0 ? (
        <p className="m-0 mt-3 text-slate-700" data-testid="no-other-devices">
          {t('devices.none')}
        </p>
      ) : (
        <button
          type="button"
          className={`${danger} mt-4`}
          disabled={busy}
          onClick={() => {
            setNotice(null);
            setPending({ kind: 'others' });
          }}
        >
          {t('devices.logoutOthers')}
        </button>
      )}

      {!tenantScope && (twofaEnabled || remembered.length > 0) && (
        <>
          <h3 className="mb-1 mt-6 text-base font-semibold" id="remembered-devices-heading">
            {t('devices.remembered')}
          </h3>
          <p className="m-0 mb-2 text-sm text-slate-700">{t('devices.rememberedHelp')}</p>
          {remembered.length === 0 ? (
            <p className="m-0 text-slate-700" data-testid="no-remembered-devices">
              {t('devices.noneRemembered')}
            </p>
          ) : (
            <ul className="m-0 flex list-none flex-col gap-3 p-0" aria-labelledby="remembered-devices-heading" data-testid="remembered-devices">
              {remembered.map((d) => (
                <li key={d.id} className={`${card} flex flex-wrap items-start justify-between gap-3`}>
                  <div>
                    <p className="m-0 flex flex-wrap items-center gap-2 font-medium">
                      <span>{deviceName(t, d)}</span>
                      <span className="text-slate-700">{summary(t, d)}</span>
                      {d.thisBrowser && (
                        <span className="rounded bg-blue-100 px-2 py-0.5 text-sm text-blue-900" data-testid="this-browser-badge">
                          {t('devices.thisBrowser')}
                        </span>
                      )}
                    </p>
                    <p className="m-0 mt-1 text-sm text-slate-700">
                      {t('devices.rememberedUntil', {
                        from: fullTimestamp(d.rememberedAt, lang),
                        until: fullTimestamp(d.expiresAt, lang),
                      })}
                    </p>
                  </div>
                  <button
                    type="button"
                    className={danger}
                    aria-label={t('devices.forgetDevice', { device: `${deviceName(t, d)} ${summary(t, d)}` })}
                    disabled={busy}
                    onClick={() => {
                      setNotice(null);
                      setPending({ kind: 'forget', device: d });
                    }}
                  >
                    {t('devices.forget')}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}

      <Dialog
        open={pending !== null}
        labelledBy="devices-confirm-title"
        describedBy="devices-confirm-text"
        onDismiss={() => {
          if (!busy) setPending(null);
        }}
        initialFocus={cancelRef}
        returnFocus={() => {
          if (!focusHeading.current) return null;
          focusHeading.current = false;
          return headingRef.current;
        }}
        testId="devices-confirm"
      >
        {pending && (
          <>
            <h2 id="devices-confirm-title" className="m-0 text-lg font-semibold">
              {pending.kind === 'one' ? t('devices.confirmLogoutTitle', { device: deviceLabel(t, pending.device) }) : t(CONFIRM_TITLE[pending.kind])}
            </h2>
            <p id="devices-confirm-text" className="mt-3">
              {confirmText(pending)}
            </p>
            <div className="mt-6 flex justify-end gap-2">
              <button
                ref={cancelRef}
                type="button"
                className="rounded border border-slate-500 bg-white px-4 py-2 text-slate-900"
                disabled={busy}
                onClick={() => setPending(null)}
              >
                {t('devices.cancel')}
              </button>
              <button
                type="button"
                className="rounded bg-red-800 px-4 py-2 font-medium text-white hover:bg-red-900 disabled:cursor-not-allowed disabled:bg-slate-400 disabled:text-slate-900"
                disabled={busy}
                onClick={() => void confirm()}
              >
                {t(CONFIRM_ACTION[pending.kind])}
              </button>
            </div>
          </>
        )}
      </Dialog>
    </section>
  );
}
