// The frame of the public screens beside login (additional challenge, mobile hand-off, and for
// signed-out visitors the error, SSO result and outbox pages: routes/http/framed.tsx): a centred
// card under the suite name, and the login footer's language switch and copyright line.
import type { ReactNode } from 'react';
import LanguageSwitch from '../islands/account/LanguageSwitch';
import type { Lang, T } from '../shared/i18n';
import { Island } from './Island';

/** `basePath`: the language switch also works without JavaScript (a form; decision 0033). */
export function PublicCard({ t, lang, year, heading, wide, basePath, children }: { t: T; lang: Lang; year: number; heading: string; wide?: boolean; basePath?: string; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <main className="flex flex-1 items-center justify-center p-4">
        <div className={`w-full ${wide ? 'max-w-4xl' : 'max-w-md'} rounded-lg bg-white p-6 shadow sm:p-8`}>
          <p className="m-0 text-center text-sm font-semibold text-blue-900">
            {t('product.suite')} {t('product.accounts')}
          </p>
          <h1 className="mb-6 mt-1 text-center text-2xl font-semibold">{heading}</h1>
          {children}
        </div>
      </main>
      <footer className="flex flex-wrap items-center justify-between gap-2 px-6 py-4 text-sm text-slate-700">
        <Island name="LanguageSwitch" component={LanguageSwitch} props={basePath ? { lang, basePath } : { lang }} />
        <p className="m-0">{t('product.copyright', { year })}</p>
      </footer>
    </div>
  );
}
