// The redirection step after login (spec 01): organisation chooser, then app chooser. The
// organisations are the buttons of a form that also works without JavaScript: it posts the
// choice to the login page, which answers the same next step (src/routes/sign-in/login-page.tsx).
import { useEffect, useRef, useState } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';
import { afterTenantChosen, decideRedirection, redirectionShortcuts, redirectionStep, type Decision, type RedirectionInput } from '../../shared/sign-in/redirection';
import Dialog from '../kit/Dialog';
import { buttonClass } from '../kit/Button';

export interface RedirectionProps {
  lang: Lang;
  input: RedirectionInput;
}

export default function Redirection({ lang, input }: RedirectionProps) {
  const t = getT(lang);
  const [decision, setDecision] = useState<Decision>(() => decideRedirection(input));
  const [error, setError] = useState<string | null>(null);
  // Whether this person saw the organisation chooser: the app chooser is then step 2 of 2.
  const [tenantChooserShown, setTenantChooserShown] = useState(() => decideRedirection(input).kind === 'choose-tenant');
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (decision.kind === 'go') window.location.assign(decision.url);
    if (decision.kind === 'switch-tenant') {
      void api<{ url?: string }>(input.basePath, 'POST', 'handoff', { tenant_id: decision.tenantId, continue: decision.path }).then(
        (r) => (r.ok && r.data.url ? window.location.assign(r.data.url) : setError(t('errors.generic'))),
      );
    }
    headingRef.current?.focus();
  }, [decision]);

  const signOut = async () => {
    await api(input.basePath, 'POST', 'logout');
    window.location.assign(`${input.basePath}/login`);
  };

  // The organisation chooser's form (its buttons post the choice when JavaScript is off).
  const chooserAction = `${input.basePath}/login/organization${input.continuePath ? `?continue=${encodeURIComponent(input.continuePath)}` : ''}`;

  if (decision.kind === 'go' || decision.kind === 'switch-tenant') {
    return (
      <>
        <p role="status" className="text-center text-slate-700">
          {error ?? t('common.loading')}
        </p>
        {decision.kind === 'switch-tenant' && (
          // The hand-off is a POST: without JavaScript the person sends it with this button.
          <noscript>
            <form method="post" action={chooserAction}>
              <button type="submit" name="tenant_id" value={decision.tenantId} className={buttonClass('primary', { block: true })}>
                {t('redirection.continue')}
              </button>
            </form>
          </noscript>
        )}
      </>
    );
  }

  const chooseTenant = decision.kind === 'choose-tenant';
  const step = redirectionStep(decision.kind, tenantChooserShown);
  // Besides the spec's choices: the account, and the administration for those who may (0044).
  const shortcuts = redirectionShortcuts(input);
  return (
    // A step of signing in, not a side trip: no dismissal (no onDismiss), the heading takes the focus.
    <Dialog open labelledBy="redirection-title" initialFocus={headingRef} testId="redirection-dialog">
      <div>
        {step && <p className="m-0 mb-1 text-sm text-slate-600">{t('redirection.step', { step: step.step, total: step.total })}</p>}
        <h2 id="redirection-title" ref={headingRef} tabIndex={-1} className="m-0 text-xl font-semibold outline-none">
          {t(chooseTenant ? 'redirection.chooseOrganization' : 'redirection.chooseApp')}
        </h2>
        {error && <p role="alert" className="text-red-800">{error}</p>}
        {chooseTenant ? (
          <form method="post" action={chooserAction}>
            <ul className="m-0 mt-4 flex list-none flex-col gap-2 p-0">
              {input.tenants.map((tenant) => (
                <li key={tenant.id}>
                  <button
                    type="submit"
                    name="tenant_id"
                    value={tenant.id}
                    className="w-full rounded border border-slate-300 bg-white px-4 py-3 text-left text-base hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700"
                    onClick={(e) => {
                      e.preventDefault();
                      setTenantChooserShown(true);
                      setDecision(afterTenantChosen(input, tenant));
                    }}
                  >
                    {tenant.name}
                    {tenant.id === input.hostTenantId && <span className="ml-2 text-sm text-slate-600">({t('redirection.current')})</span>}
                  </button>
                </li>
              ))}
            </ul>
          </form>
        ) : (
          <ul className="m-0 mt-4 flex list-none flex-col gap-2 p-0" data-testid="redirection-apps">
            {decision.apps.map((app) => (
              <li key={app}>
                <a className="block rounded border border-slate-300 px-4 py-3 text-slate-900 no-underline hover:bg-slate-100" href={input.appUrls[app]}>
                  {t(`apps.${app}`)}
                </a>
              </li>
            ))}
          </ul>
        )}
        <nav aria-labelledby="redirection-elsewhere" className="mt-4 border-t border-slate-200 pt-3" data-testid="redirection-shortcuts">
          <h3 id="redirection-elsewhere" className="m-0 mb-2 text-sm font-semibold text-slate-700">
            {t('redirection.elsewhere')}
          </h3>
          <ul className="m-0 flex list-none flex-wrap gap-x-4 gap-y-2 p-0">
            <li>
              <a href={shortcuts.myAccount} className="inline-block py-1 text-blue-800 underline">
                {t('redirection.myAccount')}
              </a>
            </li>
            {shortcuts.administration && (
              <li>
                <a href={shortcuts.administration} className="inline-block py-1 text-blue-800 underline">
                  {t('redirection.administration')}
                </a>
              </li>
            )}
          </ul>
        </nav>
        {/* A way out of a step that cannot be dismissed: the wrong account, or no wish to go on. */}
        <div className="mt-4 text-right">
          <button
            type="button"
            className={buttonClass('secondary')}
            data-testid="redirection-sign-out"
            onClick={() => void signOut()}
          >
            {t('redirection.signOut')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
