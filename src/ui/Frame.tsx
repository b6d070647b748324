// The authenticated frame: toolbar island, side drawer by role (spec 01 "Side drawer"), content.
import { useContext, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import type { Config } from '../config';
import type { T, Lang } from '../shared/i18n';
import type { AccountNoticeName } from '../shared/notices';
import type { AppKey } from '../shared/sign-in/redirection';
import AccountNotice from '../islands/frame/AccountNotice';
import Toolbar from '../islands/frame/Toolbar';
import TrialExpiredPrompt from '../islands/billing/TrialExpiredPrompt';
import type { IslandName } from '../island-texts';
import { Island, IslandContext, type FrameChrome } from './Island';
import { formatDateTime } from '../shared/dates';

export interface FrameData {
  lang: Lang;
  t: T;
  config: Config;
  userName: string;
  isAdmin: boolean;
  /** Admin, or a tenant manager viewing a tenant from its subdomain. */
  canManagePeople: boolean;
  apps: AppKey[];
  tenants: { id: number; name: string; hostLabel: string; current: boolean }[];
  currentPath: string;
  /** The drawer entry to mark current (src/shared/routes.ts `drawerEntry`, else the route). */
  activeRoute: string | null;
  /** A toast named by the page's `?notice=` query (src/shared/notices.ts), or none. */
  notice?: AccountNoticeName | null;
  /** Admin of a tenant in trial_expired_not_yet_contracted: the contract-application prompt (spec 02). */
  trialExpired?: { initialSubdomain: string } | null;
  /** Admin of a tenant using SSO whose IdP certificates all end within 30 days (decision 0042). */
  ssoCertificate?: { expiresAt: number; expired: boolean } | null;
}

function NavLink({ href, active, children }: { href: string; active: boolean; children: ReactNode }) {
  return (
    <li>
      <a
        href={href}
        aria-current={active ? 'page' : undefined}
        className={`block px-4 py-2 text-slate-900 no-underline hover:bg-slate-100 ${active ? 'bg-blue-50 font-semibold text-blue-900' : ''}`}
      >
        {children}
      </a>
    </li>
  );
}

/** The frame without the page's part of <main>, which FRAME_SPLIT marks. */
function Chrome({ data }: { data: FrameData }) {
  const { t, config } = data;
  const base = config.BASE_PATH;
  const link = (route: string, path: string, key: string) => (
    <NavLink href={`${base}${path}`} active={data.activeRoute === route}>
      {t(key)}
    </NavLink>
  );
  // A section label is a plain list item: an <li role="presentation"> inside the <ul> breaks the
  // list for assistive technology (axe rule "list").
  const section = (key: string) => (
    <li className="mt-3 px-4 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-700">
      {t(key)}
    </li>
  );
  const appUrl: Record<AppKey, string> = { meishi: config.APP_URL_MEISHI, scheduler: config.APP_URL_SCHEDULER, meishi_operator: config.APP_URL_OPERATOR };
  const current = data.tenants.length > 1 ? data.tenants.find((x) => x.current) : undefined;
  return (
    <div className="min-h-screen">
      {/* WCAG 2.4.1: the first thing a keyboard reaches; the toolbar and drawer come before the content. */}
      <a href="#main" className="skip-link" data-testid="skip-link">
        {t('frame.skipToContent')}
      </a>
      <header>
        <Island
          name="Toolbar"
          component={Toolbar}
          props={{
            lang: data.lang,
            basePath: base,
            userName: data.userName,
            manualUrl: config.MANUAL_URL,
            faqUrl: config.FAQ_URL,
            tenants: data.tenants,
            currentPath: data.currentPath,
            currentOrganization: current?.name ?? null,
          }}
        />
      </header>
      <div className="flex">
        {/* Display is set by the drawer rules of uno.config.ts alone (a display utility here would
            beat the narrow-screen rule that hides it): a column from 960px up, an overlay below. */}
        <nav id="side-drawer" aria-label={t('drawer.navigation')} className="side-drawer w-[250px] shrink-0 border-r border-slate-200 bg-white">
          <ul className="m-0 flex-1 list-none p-0 py-2">
            {link('my-account', '/my-account', 'drawer.myAccount')}
            {data.canManagePeople && (
              <>
                {link('admin-user-management', '/admin/users', 'drawer.manageUsers')}
                {link('admin-department-management', '/admin/departments', 'drawer.manageDepartments')}
              </>
            )}
            {data.isAdmin && (
              <>
                {link('tenant-settings', '/admin/tenant-settings', 'drawer.tenantUrl')}
                {section('drawer.security')}
                {link('password-policy-settings', '/admin/passwords', 'drawer.passwords')}
                {link('twofa-settings', '/admin/twofa', 'drawer.twofa')}
                {link('ip-restriction', '/admin/ip-restriction', 'drawer.ipRestriction')}
                {link('sso-setting', '/admin/sso-setting', 'drawer.sso')}
                {link('scim-provisioning', '/admin/scim', 'drawer.scim')}
                {link('activity-logs', '/admin/activity-logs', 'drawer.activityLogs')}
                {section('drawer.billing')}
                {link('contact-details', '/admin/contact-details', 'drawer.contactDetails')}
                {link('subscriptions', '/admin/subscriptions', 'drawer.subscriptions')}
                {link('get-more-services', '/admin/get-more-services', 'drawer.getMoreServices')}
              </>
            )}
            {data.apps.length > 0 && section('drawer.apps')}
            {data.apps.map((app) => (
              <NavLink key={app} href={appUrl[app]} active={false}>
                {t(`apps.${app}`)}
              </NavLink>
            ))}
          </ul>
          <p className="m-0 px-4 py-3 text-sm text-slate-700" data-testid="app-version">
            {t('drawer.version', { version: config.version })}
          </p>
        </nav>
        <div className="drawer-backdrop" aria-hidden="true" data-testid="drawer-backdrop" />
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-4 outline-none md:p-6">
          {FRAME_SPLIT_ELEMENT}
        </main>
      </div>
    </div>
  );
}

// Where the page's own part of <main> goes in the frame's HTML: an element no page renders.
const FRAME_SPLIT_ELEMENT = <template data-frame-split="" />;
const FRAME_SPLIT = '<template data-frame-split=""></template>';

// The toolbar and the drawer are most of a small screen's elements and the same for every request
// with the same inputs: rendered once per inputs and kept (the last CHROMES_KEPT per
// configuration). The HTML is made from the key's inputs alone, so it decides nothing.
const CHROMES_KEPT = 256;
const chromes = new WeakMap<Config, Map<string, FrameChrome>>();

function frameChrome(data: FrameData, firstIsland: number): FrameChrome {
  const key = JSON.stringify([firstIsland, data.lang, data.userName, data.tenants, data.currentPath, data.activeRoute, data.isAdmin, data.canManagePeople, data.apps]);
  let kept = chromes.get(data.config);
  if (!kept) chromes.set(data.config, (kept = new Map()));
  let chrome = kept.get(key);
  if (chrome) {
    kept.delete(key);
  } else {
    const collector = { names: new Set<IslandName>(), next: firstIsland };
    const html = renderToString(
      <IslandContext.Provider value={collector}>
        <Chrome data={data} />
      </IslandContext.Provider>,
    );
    const split = html.indexOf(FRAME_SPLIT);
    chrome = { before: html.slice(0, split), after: html.slice(split + FRAME_SPLIT.length), names: [...collector.names], islands: collector.next - firstIsland };
    if (kept.size >= CHROMES_KEPT) kept.delete(kept.keys().next().value as string);
  }
  kept.set(key, chrome);
  return chrome;
}

/**
 * A signed-in screen, as a page's whole body: the page's part of <main> is rendered here, and
 * renderDocument (ui/render.tsx) puts the frame's kept HTML around it (see frameChrome).
 */
export function Frame({ data, children }: { data: FrameData; children: ReactNode }) {
  const collector = useContext(IslandContext);
  if (!collector?.framed) throw new Error("Frame is a page's whole body (renderPage's body)");
  const chrome = frameChrome(data, collector.next);
  collector.next += chrome.islands;
  for (const name of chrome.names) collector.names.add(name);
  collector.frame = chrome;
  const { config } = data;
  const base = config.BASE_PATH;
  return (
    <>
      {data.trialExpired && (
        <Island
          name="TrialExpiredPrompt"
          component={TrialExpiredPrompt}
          props={{ lang: data.lang, basePath: base, initialSubdomain: data.trialExpired.initialSubdomain, planUrl: config.PLAN_URL, inquiryUrl: config.INQUIRY_URL }}
        />
      )}
      {data.ssoCertificate && (
        <div role="alert" className={`mb-4 rounded-lg border p-3 ${data.ssoCertificate.expired ? 'border-red-300 bg-red-50 text-red-950' : 'border-amber-300 bg-amber-50 text-amber-950'}`} data-testid="sso-certificate-banner">
          <p className="m-0">{data.t(data.ssoCertificate.expired ? 'sso.expiryBannerExpired' : 'sso.expiryBanner', { date: formatDateTime(data.ssoCertificate.expiresAt, data.lang) })}</p>
          <a className="text-blue-900 underline" href={`${base}/admin/sso-setting`}>
            {data.t('sso.expiryBannerLink')}
          </a>
        </div>
      )}
      {data.notice && <Island name="AccountNotice" component={AccountNotice} props={{ lang: data.lang, notice: data.notice }} />}
      {children}
    </>
  );
}
