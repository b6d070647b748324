// The close button of the SSO result pages (spec 01: saml-login-error, saml-test-passed), which
// open in their own window (the settings screen's test, or the IdP's return).
import { getT, type Lang } from '../../shared/i18n';
import { buttonClass } from '../kit/Button';

export default function CloseWindow({ lang }: { lang: Lang }) {
  const t = getT(lang);
  return (
    <button type="button" onClick={() => window.close()} className={buttonClass('primary')}>
      {t('sso.close')}
    </button>
  );
}
