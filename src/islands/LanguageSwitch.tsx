// Login footer language switch: remembers the choice in a cookie and re-renders the page.
import type { Lang } from '../shared/i18n';
import { LanguageButtons } from './LanguageButtons';

export default function LanguageSwitch({ lang }: { lang: Lang }) {
  const choose = (next: Lang) => {
    document.cookie = `portal_locale=${next}; path=/; max-age=31536000; samesite=lax`;
    window.location.reload();
  };
  return <LanguageButtons lang={lang} onChoose={choose} />;
}
