// The close button of the SSO result pages (spec 01: saml-login-error, saml-test-passed), which
// open in their own window (the settings screen's test, or the IdP's return).
import { getT, type Lang } from '../shared/i18n';

export default function CloseWindow({ lang }: { lang: Lang }) {
  const t = getT(lang);
  return (
    <button type="button" onClick={() => window.close()} className="rounded bg-blue-800 px-4 py-2 text-base text-white">
      {t('sso.close')}
    </button>
  );
}
