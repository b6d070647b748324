// The ja/en pair of toggle buttons used by the login footer and the my-account setting.
import { getT, LANGUAGES, type Lang } from '../../shared/i18n';

/** `submit`: the buttons submit `lang` with their form (the public pages' switch without JavaScript). */
export function LanguageButtons({ lang, onChoose, className = '', submit }: { lang: Lang; onChoose: (l: Lang) => void; className?: string; submit?: boolean }) {
  const t = getT(lang);
  return (
    <div role="group" aria-label={t('login.language')} className={`flex gap-2 ${className}`}>
      {LANGUAGES.map((l) => (
        <button
          key={l}
          type={submit ? 'submit' : 'button'}
          name={submit ? 'lang' : undefined}
          value={submit ? l : undefined}
          lang={l}
          aria-pressed={l === lang}
          onClick={(e) => {
            e.preventDefault();
            onChoose(l);
          }}
          className={`rounded border px-3 py-1 text-sm ${l === lang ? 'border-blue-800 bg-blue-800 text-white' : 'border-slate-500 bg-white text-slate-800'}`}
        >
          {t(`language.${l}`)}
        </button>
      ))}
    </div>
  );
}
