// Server-rendered pieces of the tenant-settings pages (spec 02): the page heading with its
// introduction, and the explanation shown instead of a feature the tenant has not subscribed to.
import type { ReactNode } from 'react';
import type { T } from '../../shared/i18n';

export function AdminHeading({ t, titleKey, intro }: { t: T; titleKey: string; intro?: string }) {
  return (
    <>
      <h1 className={`mt-0 text-2xl font-semibold ${intro ? 'mb-2' : 'mb-6'}`}>{t(titleKey)}</h1>
      {intro && <p className="mb-6 mt-0 max-w-3xl text-slate-800">{intro}</p>}
    </>
  );
}

/** IP restriction and 2FA enforcement without their subscription (spec 02 "Two-factor ..."). */
export function OptionalFeature({ t, base }: { t: T; base: string }) {
  return (
    <section aria-labelledby="optional-feature-title" className="max-w-2xl rounded-lg border border-blue-200 bg-blue-50 p-4 text-blue-950" data-testid="optional-feature">
      <h2 id="optional-feature-title" className="m-0 text-lg font-semibold">
        {t('admin.common.optionalFeatureTitle')}
      </h2>
      <p className="mb-3 mt-2">{t('admin.common.optionalFeature')}</p>
      <a className="text-blue-800 underline" href={`${base}/admin/get-more-services`}>
        {t('admin.common.requestFeature')}
      </a>
    </section>
  );
}

export function LoadError({ t, children }: { t: T; children?: ReactNode }) {
  return (
    <p role="alert" className="m-0 max-w-2xl rounded border border-red-700 bg-red-50 p-3 text-red-900">
      {t('errors.generic')}
      {children}
    </p>
  );
}

/** Spec 02: a tenant manager on the people pages sees which tenant they are viewing. */
export function ManagerBanner({ t, tenantName }: { t: T; tenantName: string }) {
  return (
    <p role="note" className="m-0 mb-4 max-w-3xl rounded border border-blue-700 bg-blue-50 p-3 text-blue-950" data-testid="manager-banner">
      {t('people.banner.manager', { tenant: tenantName })}
    </p>
  );
}
