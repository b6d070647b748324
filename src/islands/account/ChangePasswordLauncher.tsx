// My account's "Change password" entry: a button that opens the change-password dialog. The policy
// comes from the page when it has it, else from GET users/password-policy/{email} on first opening
// (the default policy when that fails), so the page stays cheap to render.
import { useRef, useState } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';
import { DEFAULT_POLICY, type PasswordPolicy } from '../../shared/account/password-policy';
import ChangePasswordDialog from './ChangePasswordDialog';
import { loadScorer } from './PasswordFields';

export interface ChangePasswordLauncherProps {
  lang: Lang;
  basePath: string;
  email: string;
  policy?: PasswordPolicy | null;
}

export default function ChangePasswordLauncher(p: ChangePasswordLauncherProps) {
  const t = getT(p.lang);
  const [open, setOpen] = useState(false);
  const [policy, setPolicy] = useState<PasswordPolicy | null>(p.policy ?? null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  const openDialog = () => {
    setOpen(true);
    void loadScorer();
    if (!policy) {
      void api<PasswordPolicy>(p.basePath, 'GET', `users/password-policy/${encodeURIComponent(p.email)}`).then((r) =>
        setPolicy(r.ok && typeof r.data.minimum_password_length === 'number' ? r.data : DEFAULT_POLICY),
      );
    }
  };

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        onClick={openDialog}
        aria-haspopup="dialog"
        data-testid="change-password-open"
        className="border-0 bg-transparent p-0 text-left text-base text-blue-800 underline hover:text-blue-900"
      >
        {t('myAccount.changePassword')}
      </button>
      <ChangePasswordDialog
        lang={p.lang}
        basePath={p.basePath}
        open={open}
        forced={null}
        policy={policy}
        email={p.email}
        onClose={() => setOpen(false)}
        returnFocus={() => buttonRef.current}
      />
    </>
  );
}
