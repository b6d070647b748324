// My-account language choice (PATCH user/language), then the page renders in the new language.
import { useState } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';
import { LanguageButtons } from './LanguageButtons';

export default function LanguageSetting({ lang, basePath }: { lang: Lang; basePath: string }) {
  const t = getT(lang);
  const [error, setError] = useState(false);
  const choose = async (language: Lang) => {
    const r = await api(basePath, 'PATCH', 'user/language', { language });
    if (r.ok) window.location.reload();
    else setError(true);
  };
  return (
    <div>
      <h2 id="language-setting" className="m-0 text-base font-medium">
        {t('myAccount.changeLanguage')}
      </h2>
      <LanguageButtons lang={lang} onChoose={(l) => void choose(l)} className="mt-2" />
      {error && (
        <p role="alert" className="text-red-800">
          {t('errors.generic')}
        </p>
      )}
    </div>
  );
}
