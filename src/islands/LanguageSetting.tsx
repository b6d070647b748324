// My-account language choice (PATCH user/language).
import { useState } from 'react';
import { api } from '../shared/api';
import { getT, LANGUAGES, type Lang } from '../shared/i18n';

export default function LanguageSetting({ lang, basePath }: { lang: Lang; basePath: string }) {
  const t = getT(lang);
  const [error, setError] = useState(false);
  const choose = async (language: Lang) => {
    const r = await api(basePath, 'PATCH', 'user/language', { language });
    if (r.ok) window.location.reload();
    else setError(true);
  };
  return (
    <fieldset className="m-0 border-0 p-0">
      <legend className="font-medium">{t('myAccount.changeLanguage')}</legend>
      <div className="mt-2 flex gap-2">
        {LANGUAGES.map((l) => (
          <button
            key={l}
            type="button"
            lang={l}
            aria-pressed={l === lang}
            onClick={() => void choose(l)}
            className={`rounded border px-3 py-1 ${l === lang ? 'border-blue-800 bg-blue-800 text-white' : 'border-slate-400 bg-white text-slate-800'}`}
          >
            {t(`language.${l}`)}
          </button>
        ))}
      </div>
      {error && <p role="alert" className="text-red-800">{t('errors.generic')}</p>}
    </fieldset>
  );
}
