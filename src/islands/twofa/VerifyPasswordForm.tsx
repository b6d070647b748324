// Password re-entry before the account's two-factor screens (spec 01 "verify-password", sections
// 5, 7 and 8): POST password/verify; wrong_password shows 'wrong password'; success goes on to the
// page named by the redirect query (checked on the server: twofa or a same-portal path). One
// attempt at a time and the throttle's countdown are the kit's code-step state.
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';
import { useCodeEntry } from '../kit/code-step';
import PasswordStep from '../kit/PasswordStep';
import { errorText } from '../../shared/error-codes';

export interface VerifyPasswordFormProps {
  lang: Lang;
  basePath: string;
  /** The redirect query as given ("twofa"), sent along with the password. */
  redirect: string;
  /** Where to go after the check: already resolved and checked by the server. */
  next: string;
}

export default function VerifyPasswordForm({ lang, basePath, redirect, next }: VerifyPasswordFormProps) {
  const t = getT(lang);
  const entry = useCodeEntry(t);

  const verify = async (password: string) => {
    if (!password) return entry.invalid(t('validation.required'));
    const r = await entry.attempt(() => api(basePath, 'POST', 'password/verify', { password, redirect }));
    if (!r) return;
    if (r.ok) return window.location.assign(next);
    entry.refuse(t(errorText(r.data.message)));
  };

  return (
    <div>
      <PasswordStep t={t} entry={entry} id="verify-password" testId="verify-password" block={false} onSubmit={(password) => void verify(password)} />
      <p className="mb-0 mt-4">
        <a href={`${basePath}/my-account`} className="text-blue-800 underline">
          {t('common.backToMyAccount')}
        </a>
      </p>
    </div>
  );
}
