// Login footer language switch: remembers the choice in a cookie and re-renders the page. Given the
// base path, it is a form too: without JavaScript its buttons post the choice to
// <base>/language, which sets the same cookie and comes back (decision 0033).
import type { Lang } from '../../shared/i18n';
import { LanguageButtons } from './LanguageButtons';

export default function LanguageSwitch({ lang, basePath }: { lang: Lang; basePath?: string }) {
  const choose = (next: Lang) => {
    document.cookie = `portal_locale=${next}; path=/; max-age=31536000; samesite=lax`;
    window.location.reload();
  };
  if (!basePath) return <LanguageButtons lang={lang} onChoose={choose} />;
  return (
    <form method="post" action={`${basePath}/language`}>
      <LanguageButtons lang={lang} onChoose={choose} submit />
    </form>
  );
}
