// Outlook add-in sign-in, last step (spec 01 section 4, decision 0007): the add-in opened the login
// page with source=outlook and its token; once signed in, the person confirms that they want the
// add-in signed in as them (a link from someone else must not map silently), and only then is the
// token mapped (POST outlook-sso/map-user); the person goes back to Outlook.
import { useEffect, useRef, useState } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';
import { buttonClass } from '../kit/Button';

export interface OutlookCompleteProps {
  lang: Lang;
  basePath: string;
  token: string;
  /** Where to go afterwards; already checked by the server (a same-portal path) or null. */
  startUrl: string | null;
  /** Who the add-in would be signed in as (shown in the question). */
  email: string;
}

export default function OutlookComplete(p: OutlookCompleteProps) {
  const t = getT(p.lang);
  const [state, setState] = useState<'confirm' | 'working' | 'done' | 'failed' | 'cancelled'>('confirm');
  const headingRef = useRef<HTMLHeadingElement>(null);

  const confirm = async () => {
    setState('working');
    const r = await api(p.basePath, 'POST', 'outlook-sso/map-user', { token: p.token });
    setState(r.ok ? 'done' : 'failed');
    if (r.ok && p.startUrl) window.location.assign(p.startUrl);
  };
  useEffect(() => {
    if (state !== 'working') headingRef.current?.focus();
  }, [state]);

  return (
    <section aria-labelledby="outlook-title" data-testid="outlook-complete" className="text-center">
      <h2 id="outlook-title" ref={headingRef} tabIndex={-1} className="mt-0 text-xl font-semibold outline-none">
        {t('outlook.title')}
      </h2>
      {state === 'confirm' && (
        <div data-testid="outlook-confirm">
          <p className="text-slate-800">{t('outlook.confirm', { email: p.email })}</p>
          <p className="text-sm text-slate-700">{t('outlook.confirmHint')}</p>
          <div className="mt-4 flex justify-center gap-3">
            <button type="button" className={buttonClass('primary')} onClick={() => void confirm()}>
              {t('outlook.continue')}
            </button>
            <button type="button" className="rounded border border-slate-500 bg-white px-4 py-2 text-slate-900 hover:bg-slate-100" onClick={() => setState('cancelled')}>
              {t('outlook.cancel')}
            </button>
          </div>
        </div>
      )}
      <div aria-live="polite">
        {state === 'cancelled' && (
          <p role="status" className="text-slate-800" data-testid="outlook-cancelled">
            {t('outlook.cancelled')}{' '}
            <a className="text-blue-800 underline" href={`${p.basePath}/my-account`}>
              {t('outlook.toAccount')}
            </a>
          </p>
        )}
        {state === 'working' && (
          <p role="status" className="text-slate-700">
            {t('outlook.working')}
          </p>
        )}
        {state === 'done' && (
          <p role="status" className="rounded border border-green-700 bg-green-50 p-3 text-green-900" data-testid="outlook-done">
            {t('outlook.done')}
          </p>
        )}
        {state === 'failed' && (
          <p role="alert" className="rounded border border-red-700 bg-red-50 p-3 text-red-900" data-testid="outlook-failed">
            {t('outlook.failed')}
          </p>
        )}
      </div>
    </section>
  );
}
