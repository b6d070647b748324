// A toast on an authenticated page, named by its `?notice=` query (src/shared/notices.ts). It is
// in the server's HTML (no flash on load); after hydration the query is dropped from the address
// (a reload does not repeat it), and it closes with its button or after its timeout, which waits
// while the pointer or the focus is on it.
import { useEffect, useRef, useState } from 'react';
import { getT, type Lang } from '../shared/i18n';
import { ACCOUNT_NOTICES, type AccountNoticeName } from '../shared/notices';

export interface AccountNoticeProps {
  lang: Lang;
  notice: AccountNoticeName;
}

export default function AccountNotice({ lang, notice }: AccountNoticeProps) {
  const t = getT(lang);
  const def = ACCOUNT_NOTICES[notice];
  const [open, setOpen] = useState(true);
  const [held, setHeld] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const url = new URL(window.location.href);
    if (url.searchParams.get('notice') === notice) {
      url.searchParams.delete('notice');
      window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    }
  }, []);
  useEffect(() => {
    if (!open || held || def.timeoutMs === null) return;
    const id = setTimeout(() => setOpen(false), def.timeoutMs);
    return () => clearTimeout(id);
  }, [open, held]);

  if (!open) return null;
  const style = def.kind === 'error' ? 'border-red-700 bg-red-50 text-red-900' : 'border-green-700 bg-green-50 text-green-900';
  return (
    <div
      ref={ref}
      role={def.kind === 'error' ? 'alert' : 'status'}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={(e) => {
        if (!ref.current?.contains(e.relatedTarget as Node | null)) setHeld(false);
      }}
      className={`fixed bottom-4 right-4 z-40 flex max-w-md items-start gap-3 rounded border p-4 shadow-lg ${style}`}
      data-testid="account-notice"
    >
      <p className="m-0 flex-1">{t(def.key)}</p>
      <button type="button" onClick={() => setOpen(false)} className="rounded border border-current bg-white px-2 py-0.5 text-sm">
        {t('common.close')}
      </button>
    </div>
  );
}
