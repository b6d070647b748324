// The authenticated toolbar (spec 01 "Toolbar"): drawer toggle, title, the current organisation
// (people in several), support menu, user menu with Switch Organization and Logout.
//
// The drawer (src/ui/Frame.tsx, rules in uno.config.ts): from 960px up a column, open unless the
// toggle closed it on this page; below 960px closed on every page load, an overlay when the toggle
// opens it. The toggle reports the state (aria-expanded); Escape, a click beside the overlay or a
// move across the breakpoint closes it. Menus are disclosures of ordinary links and buttons (their
// roles stay what they are) with the keys of a menu: arrow keys, Home and End move between items,
// Escape returns to the button.
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';
import Dialog from '../kit/Dialog';
import { moveMenuFocus } from '../kit/menu-keys';

export interface ToolbarProps {
  lang: Lang;
  basePath: string;
  userName: string;
  manualUrl: string;
  faqUrl: string;
  /** Tenants the user may switch to; the dialog shows only when there are several. */
  tenants: { id: number; name: string; hostLabel: string; current: boolean }[];
  currentPath: string;
  /** The organisation of this host, for people in several (null otherwise: there is nothing to tell apart). */
  currentOrganization?: string | null;
}

type Open = null | 'support' | 'user' | 'switch';

const WIDE = '(min-width: 960px)';

function isWide(): boolean {
  return window.matchMedia(WIDE).matches;
}

/** Whether the drawer shows now: its state on <html>, else the width's default. */
function drawerShown(): boolean {
  const state = document.documentElement.dataset.drawer;
  return state === 'open' || (state !== 'closed' && isWide());
}

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return menu ? [...menu.querySelectorAll<HTMLElement>('[data-menu-item]')] : [];
}

/** Arrow keys, Home and End inside an open menu. */
function onMenuKey(e: ReactKeyboardEvent<HTMLElement>) {
  moveMenuFocus(e, menuItems(e.currentTarget));
}

export default function Toolbar(p: ToolbarProps) {
  const t = getT(p.lang);
  const [open, setOpen] = useState<Open>(null);
  const [error, setError] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const userButtonRef = useRef<HTMLButtonElement>(null);
  const supportButtonRef = useRef<HTMLButtonElement>(null);
  const drawerButtonRef = useRef<HTMLButtonElement>(null);
  const supportMenuRef = useRef<HTMLUListElement>(null);
  const userMenuRef = useRef<HTMLUListElement>(null);
  // The server cannot know the width: it says "closed", and the browser corrects it at once.
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Which item a menu opened from the keyboard focuses first ("first", "last"), or none (a click).
  const focusOnOpen = useRef<'first' | 'last' | null>(null);

  const setDrawer = (next: boolean | null) => {
    const el = document.documentElement;
    if (next === null) delete el.dataset.drawer;
    else el.dataset.drawer = next ? 'open' : 'closed';
    setDrawerOpen(drawerShown());
  };

  useEffect(() => {
    setDrawerOpen(drawerShown());
    // Across the breakpoint the drawer goes back to that width's default (an overlay left open on a
    // phone turned sideways would otherwise cover the page).
    const media = window.matchMedia(WIDE);
    const onMedia = () => setDrawer(null);
    media.addEventListener('change', onMedia);
    // Escape closes the menus, then the overlay; the dialog handles its own Escape (Dialog's onDismiss).
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      if (document.querySelector('dialog:modal')) return;
      setOpen((o) => (o === 'switch' ? o : null));
      if (!isWide() && document.documentElement.dataset.drawer === 'open') {
        setDrawer(false);
        drawerButtonRef.current?.focus();
      }
    };
    // Outside clicks close the menus, and on a narrow screen the overlay (a click on its backdrop).
    // The event's path is taken at dispatch: by the time the click reaches the document, React has
    // already re-rendered and a menu item that opened the Switch Organization dialog is detached,
    // so `contains(e.target)` would wrongly call it outside.
    const onClick = (e: MouseEvent) => {
      const path = e.composedPath();
      if (rootRef.current && !path.includes(rootRef.current)) setOpen((o) => (o === 'switch' ? o : null));
      const drawer = document.getElementById('side-drawer');
      if (!isWide() && document.documentElement.dataset.drawer === 'open' && drawer && !path.includes(drawer) && !path.includes(drawerButtonRef.current!)) setDrawer(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      media.removeEventListener('change', onMedia);
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, []);

  // Before paint, so the key that opened a menu lands its focus at once.
  useLayoutEffect(() => {
    const menu = open === 'support' ? supportMenuRef.current : open === 'user' ? userMenuRef.current : null;
    const where = focusOnOpen.current;
    focusOnOpen.current = null;
    if (!menu || !where) return;
    const items = menuItems(menu);
    (where === 'first' ? items[0] : items[items.length - 1])?.focus();
  }, [open]);

  const toggleDrawer = () => {
    const next = !drawerShown();
    setDrawer(next);
    // The overlay takes the focus to its current entry (else its first): the next Tab is inside it.
    if (next && !isWide()) {
      const drawer = document.getElementById('side-drawer');
      (drawer?.querySelector<HTMLElement>('a[aria-current="page"]') ?? drawer?.querySelector<HTMLElement>('a'))?.focus();
    }
  };

  const menuButtonProps = (name: 'support' | 'user') => ({
    'aria-expanded': open === name,
    'aria-controls': `toolbar-${name}-menu`,
    onClick: () => setOpen(open === name ? null : name),
    onKeyDown: (e: ReactKeyboardEvent<HTMLButtonElement>) => {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        focusOnOpen.current = e.key === 'ArrowDown' ? 'first' : 'last';
        if (open === name) {
          const items = menuItems(name === 'support' ? supportMenuRef.current : userMenuRef.current);
          (e.key === 'ArrowDown' ? items[0] : items[items.length - 1])?.focus();
        } else setOpen(name);
      } else if (e.key === 'Enter' || e.key === ' ') {
        // The click that follows opens it; the first item then takes the focus.
        if (open !== name) focusOnOpen.current = 'first';
      }
    },
  });
  const menuProps = (name: 'support' | 'user', button: RefObject<HTMLButtonElement | null>) => ({
    id: `toolbar-${name}-menu`,
    onKeyDown: (e: ReactKeyboardEvent<HTMLUListElement>) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        setOpen(null);
        button.current?.focus();
      } else if (e.key === 'Tab') setOpen(null);
      else onMenuKey(e);
    },
  });
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
    <div ref={rootRef} className="flex h-14 items-center gap-1 bg-blue-900 px-2 text-white sm:gap-2">
      <button
        ref={drawerButtonRef}
        type="button"
        onClick={toggleDrawer}
        aria-controls="side-drawer"
        aria-expanded={drawerOpen}
        className="shrink-0 rounded border-0 bg-transparent p-2 text-white hover:bg-blue-800"
        aria-label={t('toolbar.menu')}
        data-testid="drawer-toggle"
      >
        <span aria-hidden="true" className="text-xl">☰</span>
      </button>
      <a href={`${p.basePath}/my-account`} className="min-w-0 truncate text-lg font-semibold text-white no-underline">
        {t('product.suite')} <span className="hidden font-normal sm:inline">{t('product.accounts')}</span>
      </a>
      <div className="min-w-0 flex-1">
        {p.currentOrganization && (
          <span className="ml-2 hidden max-w-64 truncate rounded bg-blue-800 px-2 py-1 text-sm md:inline-block" title={p.currentOrganization} data-testid="toolbar-organization">
            <span className="sr-only">{t('toolbar.currentOrganization')} </span>
            {p.currentOrganization}
          </span>
        )}
      </div>
      <div className="relative shrink-0">
        <button ref={supportButtonRef} type="button" {...menuButtonProps('support')} className="rounded border-0 bg-transparent px-2 py-2 text-white hover:bg-blue-800 sm:px-3">
          {t('toolbar.support')}
        </button>
        {open === 'support' && (
          <ul ref={supportMenuRef} {...menuProps('support', supportButtonRef)} aria-label={t('toolbar.support')} className="absolute right-0 z-40 m-0 mt-1 min-w-48 list-none rounded bg-white p-0 py-1 shadow-lg">
            <li>
              <a data-menu-item="" className={menuItem} href={p.manualUrl} target="_blank" rel="noopener noreferrer">
                {t('toolbar.manual')} <span className="sr-only">{t('toolbar.opensInNewWindow')}</span>
              </a>
            </li>
            <li>
              <a data-menu-item="" className={menuItem} href={p.faqUrl} target="_blank" rel="noopener noreferrer">
                {t('toolbar.faq')} <span className="sr-only">{t('toolbar.opensInNewWindow')}</span>
              </a>
            </li>
          </ul>
        )}
      </div>
      <div className="relative shrink-0">
        <button ref={userButtonRef} type="button" {...menuButtonProps('user')} aria-label={t('toolbar.userMenu')} className="flex items-center gap-2 rounded border-0 bg-transparent px-2 py-1 text-white hover:bg-blue-800">
          <span aria-hidden="true" className="flex h-8 w-8 items-center justify-center rounded-full bg-white font-semibold text-blue-900">
            {initial}
          </span>
          <span className="hidden max-w-48 truncate sm:inline" data-testid="toolbar-user-name">{p.userName}</span>
        </button>
        {open === 'user' && (
          <ul ref={userMenuRef} {...menuProps('user', userButtonRef)} aria-label={t('toolbar.userMenu')} className="absolute right-0 z-40 m-0 mt-1 min-w-56 max-w-[calc(100vw-1rem)] list-none rounded bg-white p-0 py-1 shadow-lg">
            <li className="break-words px-4 py-2 text-sm text-slate-700">
              {p.userName}
              {p.currentOrganization && (
                <span className="mt-1 block text-slate-800" data-testid="user-menu-organization">
                  {t('toolbar.currentOrganization')}: <span className="font-semibold">{p.currentOrganization}</span>
                </span>
              )}
            </li>
            {p.tenants.length > 1 && (
              <li>
                <button data-menu-item="" type="button" className={menuItem} onClick={() => setOpen('switch')}>
                  {t('toolbar.switchOrganization')}
                </button>
              </li>
            )}
            <li>
              <button data-menu-item="" type="button" className={menuItem} onClick={() => void logout()}>
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
