// Session devices on my-account (spec 01 "Session devices"): the current session and the others,
// each with device, OS, browser, location and last activity; log out one device or all others
// (after a confirmation), then the list is fetched again.
import { useEffect, useRef, useState } from 'react';
import { api } from '../shared/api';
import { browserTimeZone, formatDateTime, SERVER_TIME_ZONE } from '../shared/dates';
import { getT, type Lang, type T } from '../shared/i18n';
import Dialog from './Dialog';

/** One row of GET session-devices (src/domain/auth/devices.ts deviceView). */
export interface SessionDevice {
  id: string;
  agent: { device: string | null; os: string | null; browser: string | null; isNextaMeishiApp: boolean };
  location: { countryCode: string | null; city: string | null; state: string | null; country: string | null };
  lastActivity: string;
}

/** A browser remembered after a two-factor code (src/domain/auth/devices.ts listRememberedDevices). */
export interface RememberedDevice {
  id: string;
  agent: { device: string | null; os: string | null; browser: string | null };
  rememberedAt: string;
  expiresAt: string;
  thisBrowser: boolean;
}

export interface SessionDeviceList {
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

function DeviceDetails({ t, lang, device, timeZone }: { t: T; lang: Lang; device: SessionDevice; timeZone: string }) {
  const row = 'grid grid-cols-[9rem_1fr] gap-2';
  return (
    <div>
      <p className="m-0 flex flex-wrap items-center gap-2 font-medium">
        <span>{deviceName(t, device)}</span>
        <span className="text-slate-700">{summary(t, device)}</span>
        {device.agent.isNextaMeishiApp && (
          <span className="rounded bg-blue-100 px-2 py-0.5 text-sm text-blue-900" data-testid="meishi-app-badge">
            {t('devices.app')}
          </span>
        )}
      </p>
      <dl className="m-0 mt-2 flex flex-col gap-1 text-sm">
        <div className={row}>
          <dt className="text-slate-700">{t('devices.device')}</dt>
          <dd className="m-0">{deviceName(t, device)}</dd>
        </div>
        <div className={row}>
          <dt className="text-slate-700">{t('devices.os')}</dt>
          <dd className="m-0">{device.agent.os ?? t('devices.unknown')}</dd>
        </div>
        <div className={row}>
          <dt className="text-slate-700">{t('devices.browser')}</dt>
          <dd className="m-0">{device.agent.browser ?? t('devices.unknown')}</dd>
        </div>
        <div className={row}>
          <dt className="text-slate-700">{t('devices.location')}</dt>
          <dd className="m-0">{place(t, device)}</dd>
        </div>
        <div className={row}>
          <dt className="text-slate-700">{t('devices.lastActivity')}</dt>
          <dd className="m-0">
            <time dateTime={device.lastActivity}>{formatDateTime(device.lastActivity, lang, timeZone)}</time>
          </dd>
        </div>
      </dl>
    </div>
  );
}

export default function SessionDevices({ lang, basePath, devices: initial, twofaEnabled }: SessionDevicesProps) {
  const t = getT(lang);
  const [devices, setDevices] = useState<SessionDeviceList>(initial);
  // The server renders Tokyo time; after hydration the browser shows its own zone.
  const [timeZone, setTimeZone] = useState(SERVER_TIME_ZONE);
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  // After a logout the button that opened the dialog may be gone: the section heading takes the focus.
  const focusHeading = useRef(false);

  useEffect(() => setTimeZone(browserTimeZone()), []);

  const refresh = async () => {
    const r = await api<SessionDeviceList>(basePath, 'GET', 'session-devices');
    if (r.ok) setDevices({ currentSession: r.data.currentSession, otherSessions: r.data.otherSessions, rememberedDevices: r.data.rememberedDevices });
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
  const confirmText = (p: Pending) =>
    p.kind === 'one'
      ? t('devices.confirmLogoutText', { device: `${deviceName(t, p.device)} ${summary(t, p.device)}` })
      : p.kind === 'forget'
        ? t('devices.confirmForgetText', { device: `${deviceName(t, p.device)} ${summary(t, p.device)}` })
        : t('devices.confirmLogoutOthersText');
  const danger =
    'rounded border border-red-800 bg-white px-3 py-1.5 text-sm text-red-800 hover:bg-red-50 disabled:cursor-not-allowed disabled:border-slate-400 disabled:text-slate-700';
  const card = 'rounded-lg bg-white p-4 shadow';
  return (
    <section aria-labelledby="session-devices-heading" className="mt-8 max-w-2xl" data-testid="session-devices">
      <h2 id="session-devices-heading" ref={headingRef} tabIndex={-1} className="m-0 text-xl font-semibold outline-none">
        {t('devices.heading')}
      </h2>
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

      <h3 className="mb-2 mt-4 text-base font-semibold">{t('devices.current')}</h3>
      <div className={card} data-testid="current-device">
        <DeviceDetails t={t} lang={lang} device={devices.currentSession} timeZone={timeZone} />
      </div>

      <h3 className="mb-2 mt-6 text-base font-semibold">{t('devices.others')}</h3>
      {others.length === 0 ? (
        <p className="m-0 text-slate-700" data-testid="no-other-devices">
          {t('devices.none')}
        </p>
      ) : (
        <>
          <ul className="m-0 flex list-none flex-col gap-3 p-0" data-testid="other-devices">
            {others.map((d) => (
              <li key={d.id} className={`${card} flex flex-wrap items-start justify-between gap-3`}>
                <DeviceDetails t={t} lang={lang} device={d} timeZone={timeZone} />
                <button
                  type="button"
                  className={danger}
                  // A name of its own per device (the toolbar's user menu has a "log out" too).
                  aria-label={t('devices.logoutDevice', { device: `${deviceName(t, d)} ${summary(t, d)}` })}
                  disabled={busy}
                  onClick={() => {
                    setNotice(null);
                    setPending({ kind: 'one', device: d });
                  }}
                >
                  {t('devices.logout')}
                </button>
              </li>
            ))}
          </ul>
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
        </>
      )}

      {(twofaEnabled || remembered.length > 0) && (
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
                        from: formatDateTime(d.rememberedAt, lang, timeZone),
                        until: formatDateTime(d.expiresAt, lang, timeZone),
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
              {t(CONFIRM_TITLE[pending.kind])}
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
