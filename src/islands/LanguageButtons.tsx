// The ja/en pair of toggle buttons used by the login footer and the my-account setting.
import { getT, LANGUAGES, type Lang } from '../shared/i18n';

export function LanguageButtons({ lang, onChoose, className = '' }: { lang: Lang; onChoose: (l: Lang) => void; className?: string }) {
  const t = getT(lang);
  return (
    <div role="group" aria-label={t('login.language')} className={`flex gap-2 ${className}`}>
      {LANGUAGES.map((l) => (
        <button
          key={l}
          type="button"
          lang={l}
          aria-pressed={l === lang}
          onClick={() => onChoose(l)}
          className={`rounded border px-3 py-1 text-sm ${l === lang ? 'border-blue-800 bg-blue-800 text-white' : 'border-slate-500 bg-white text-slate-800'}`}
        >
          {t(`language.${l}`)}
        </button>
      ))}
    </div>
  );
}
