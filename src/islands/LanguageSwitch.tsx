// Login footer language switch: remembers the choice in a cookie and re-renders the page.
import { getT, LANGUAGES, type Lang } from '../shared/i18n';

export default function LanguageSwitch({ lang }: { lang: Lang }) {
  const t = getT(lang);
  const choose = (next: Lang) => {
    document.cookie = `portal_locale=${next}; path=/; max-age=31536000; samesite=lax`;
    window.location.reload();
  };
  return (
    <div role="group" aria-label={t('login.language')} className="flex gap-2">
      {LANGUAGES.map((l) => (
        <button
          key={l}
          type="button"
          lang={l}
          aria-pressed={l === lang}
          onClick={() => choose(l)}
          className={`rounded border px-3 py-1 text-sm ${l === lang ? 'border-blue-800 bg-blue-800 text-white' : 'border-slate-400 bg-white text-slate-800'}`}
        >
          {t(`language.${l}`)}
        </button>
      ))}
    </div>
  );
}
