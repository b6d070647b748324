// Outlook add-in sign-in, last step (spec 01 section 4): the add-in opened the login page with
// source=outlook and a token of its own; once the user is signed in the token is mapped to them
// (POST outlook-sso/map-user) instead of the redirection step, and the user goes back to Outlook.
import { useEffect, useRef, useState } from 'react';
import { api } from '../shared/api';
import { getT, type Lang } from '../shared/i18n';

export interface OutlookCompleteProps {
  lang: Lang;
  basePath: string;
  token: string;
  /** Where to go afterwards; already checked by the server (a same-portal path) or null. */
  startUrl: string | null;
}

export default function OutlookComplete(p: OutlookCompleteProps) {
  const t = getT(p.lang);
  const [state, setState] = useState<'working' | 'done' | 'failed'>('working');
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let live = true;
    void api(p.basePath, 'POST', 'outlook-sso/map-user', { token: p.token }).then((r) => {
      if (!live) return;
      setState(r.ok ? 'done' : 'failed');
      if (r.ok && p.startUrl) window.location.assign(p.startUrl);
    });
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    if (state !== 'working') headingRef.current?.focus();
  }, [state]);

  return (
    <section aria-labelledby="outlook-title" data-testid="outlook-complete" className="text-center">
      <h2 id="outlook-title" ref={headingRef} tabIndex={-1} className="mt-0 text-xl font-semibold outline-none">
        {t('outlook.title')}
      </h2>
      <div aria-live="polite">
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
