// The authenticated toolbar (spec 01 "Toolbar"): menu toggle, title, support menu, user menu with
// Switch Organization and Logout.
import { useEffect, useRef, useState } from 'react';
import { api } from '../shared/api';
import { getT, type Lang } from '../shared/i18n';
import Dialog from './Dialog';

export interface ToolbarProps {
  lang: Lang;
  basePath: string;
  userName: string;
  manualUrl: string;
  faqUrl: string;
  /** Tenants the user may switch to; the dialog shows only when there are several. */
  tenants: { id: number; name: string; hostLabel: string; current: boolean }[];
  currentPath: string;
}

type Open = null | 'support' | 'user' | 'switch';

export default function Toolbar(p: ToolbarProps) {
  const t = getT(p.lang);
  const [open, setOpen] = useState<Open>(null);
  const [error, setError] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const userButtonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    // Escape closes the menus; the dialog handles its own Escape (Dialog's onDismiss).
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen((o) => (o === 'switch' ? o : null));
    // Outside clicks close the menus. The event's path is taken at dispatch: by the time the click
    // reaches the document, React has already re-rendered and a menu item that opened the Switch
    // Organization dialog is detached, so `contains(e.target)` would wrongly call it outside.
    const onClick = (e: MouseEvent) => {
      if (rootRef.current && !e.composedPath().includes(rootRef.current)) setOpen((o) => (o === 'switch' ? o : null));
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, []);

  const toggleDrawer = () => {
    const el = document.documentElement;
    const isOpen = el.dataset.drawer === 'open' || (el.dataset.drawer !== 'closed' && window.innerWidth >= 960);
    el.dataset.drawer = isOpen ? 'closed' : 'open';
  };
  const logout = async () => {
    const r = await api<{ sloUrl?: string | null }>(p.basePath, 'POST', 'logout');
    if (r.ok && r.data.sloUrl) window.location.assign(r.data.sloUrl);
    else window.location.assign(`${p.basePath}/login`);
  };
  const switchTo = async (tenantId: number) => {
    const r = await api<{ url?: string }>(p.basePath, 'POST', 'handoff', { tenant_id: tenantId, continue: p.currentPath });
    if (r.ok && r.data.url) window.location.assign(r.data.url);
    else setError(true);
  };
  const initial = [...p.userName.trim()][0]?.toUpperCase() ?? '?';
  const menuItem = 'block w-full border-0 bg-white px-4 py-2 text-left text-base text-slate-900 no-underline hover:bg-slate-100';

  return (
    <div ref={rootRef} className="flex h-14 items-center gap-2 bg-blue-900 px-2 text-white">
      <button type="button" onClick={toggleDrawer} aria-controls="side-drawer" className="rounded border-0 bg-transparent p-2 text-white hover:bg-blue-800" aria-label={t('toolbar.menu')}>
        <span aria-hidden="true" className="text-xl">☰</span>
      </button>
      <a href={`${p.basePath}/my-account`} className="flex-1 text-lg font-semibold text-white no-underline">
        {t('product.suite')} <span className="font-normal">{t('product.accounts')}</span>
      </a>
      <div className="relative">
        <button type="button" aria-haspopup="true" aria-expanded={open === 'support'} onClick={() => setOpen(open === 'support' ? null : 'support')} className="rounded border-0 bg-transparent px-3 py-2 text-white hover:bg-blue-800">
          {t('toolbar.support')}
        </button>
        {open === 'support' && (
          <ul className="absolute right-0 z-40 m-0 mt-1 min-w-48 list-none rounded bg-white p-0 py-1 shadow-lg">
            <li>
              <a className={menuItem} href={p.manualUrl} target="_blank" rel="noopener noreferrer">
                {t('toolbar.manual')} <span className="sr-only">{t('toolbar.opensInNewWindow')}</span>
              </a>
            </li>
            <li>
              <a className={menuItem} href={p.faqUrl} target="_blank" rel="noopener noreferrer">
                {t('toolbar.faq')} <span className="sr-only">{t('toolbar.opensInNewWindow')}</span>
              </a>
            </li>
          </ul>
        )}
      </div>
      <div className="relative">
        <button ref={userButtonRef} type="button" aria-haspopup="true" aria-expanded={open === 'user'} aria-label={t('toolbar.userMenu')} onClick={() => setOpen(open === 'user' ? null : 'user')} className="flex items-center gap-2 rounded border-0 bg-transparent px-2 py-1 text-white hover:bg-blue-800">
          <span aria-hidden="true" className="flex h-8 w-8 items-center justify-center rounded-full bg-white font-semibold text-blue-900">
            {initial}
          </span>
          <span className="hidden sm:inline" data-testid="toolbar-user-name">{p.userName}</span>
        </button>
        {open === 'user' && (
          <ul className="absolute right-0 z-40 m-0 mt-1 min-w-56 list-none rounded bg-white p-0 py-1 shadow-lg">
            <li className="px-4 py-2 text-sm text-slate-700">{p.userName}</li>
            {p.tenants.length > 1 && (
              <li>
                <button type="button" className={menuItem} onClick={() => setOpen('switch')}>
                  {t('toolbar.switchOrganization')}
                </button>
              </li>
            )}
            <li>
              <button type="button" className={menuItem} onClick={() => void logout()}>
                {t('toolbar.logout')}
              </button>
            </li>
          </ul>
        )}
      </div>
      {p.tenants.length > 1 && (
        <Dialog
          open={open === 'switch'}
          labelledBy="switch-org-title"
          onDismiss={() => setOpen(null)}
          // The menu item that opened it is gone with its menu: back to the user menu button.
          returnFocus={() => userButtonRef.current}
          testId="switch-organization-dialog"
        >
          <h2 id="switch-org-title" className="mt-0 text-xl font-semibold">{t('switchOrganization.title')}</h2>
          {error && <p role="alert" className="text-red-800">{t('errors.generic')}</p>}
          <ul className="m-0 flex list-none flex-col gap-2 p-0">
            {p.tenants.map((x) => (
              <li key={x.id}>
                <button type="button" disabled={x.current} aria-current={x.current ? 'true' : undefined} onClick={() => void switchTo(x.id)} className="w-full rounded border border-slate-300 bg-white px-4 py-3 text-left text-base text-slate-900 hover:bg-slate-100 disabled:bg-slate-100">
                  {x.name} <span className="text-sm text-slate-700">({x.hostLabel})</span>
                  {x.current && <span className="ml-2 text-sm font-semibold text-slate-800">— {t('switchOrganization.current')}</span>}
                </button>
              </li>
            ))}
          </ul>
          <div className="mt-4 text-right">
            <button type="button" onClick={() => setOpen(null)} className="rounded border border-slate-400 bg-white px-4 py-2 text-slate-900">
              {t('switchOrganization.cancel')}
            </button>
          </div>
        </Dialog>
      )}
    </div>
  );
}
