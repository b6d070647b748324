// Dev-mode stand-in for an app (/meishi/, /scheduler/, /operator/): shows who is signed in via
// GET /accounts/api/user, so the hand-off after login can be tested end to end.
import { useEffect, useState } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';

interface Me {
  user?: { name: string; email: string; current_tenant: { name: string } | null };
}

export default function AppStandIn({ lang, basePath, app }: { lang: Lang; basePath: string; app: string }) {
  const t = getT(lang);
  const [state, setState] = useState<'loading' | 'out' | Me['user']>('loading');
  useEffect(() => {
    void api<Me>(basePath, 'GET', 'user').then((r) => setState(r.ok && r.data.user ? r.data.user : 'out'));
  }, []);
  return (
    <main className="mx-auto max-w-xl p-8">
      <h1 className="text-2xl font-semibold">{t('dev.standInHeading', { app: t(`apps.${app}`) })}</h1>
      {state === 'loading' ? (
        <p role="status">{t('dev.standInLoading')}</p>
      ) : state === 'out' || !state ? (
        <p data-testid="stand-in-user">{t('dev.standInNotSignedIn')}</p>
      ) : (
        <>
          <p data-testid="stand-in-user">{t('dev.standInSignedIn', { name: state.name, email: state.email })}</p>
          {state.current_tenant && <p data-testid="stand-in-tenant">{t('dev.standInTenant', { tenant: state.current_tenant.name })}</p>}
        </>
      )}
      <p>
        <a className="text-blue-800 underline" href={`${basePath}/my-account`}>
          {t('common.backToMyAccount')}
        </a>
      </p>
    </main>
  );
}
