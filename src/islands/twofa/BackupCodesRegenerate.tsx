// New backup codes later (decision 0033; issue 14): on the two-factor page of an account with
// two-factor on, a dialog asks for the password, says the old codes stop working, and shows the
// five new codes once with the setup's download, print and copy (BackupCodesPanel). One attempt
// at a time and the password limit's countdown are the kit's code-step state.
import { useState } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';
import Button from '../kit/Button';
import { useCodeEntry } from '../kit/code-step';
import Dialog from '../kit/Dialog';
import PasswordStep from '../kit/PasswordStep';
import { BackupCodesPanel } from './twofa-parts';
import { errorText } from '../../shared/error-codes';

export interface BackupCodesRegenerateProps {
  lang: Lang;
  basePath: string;
  /** Written in the downloaded file. */
  email: string;
}

export default function BackupCodesRegenerate({ lang, basePath, email }: BackupCodesRegenerateProps) {
  const t = getT(lang);
  const [open, setOpen] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const entry = useCodeEntry(t);

  const close = () => {
    if (entry.busy) return;
    setOpen(false);
    setCodes(null);
    entry.setCode('');
    entry.setMessage(null);
  };

  const regenerate = async (password: string) => {
    if (!password) return entry.invalid(t('validation.required'));
    const r = await entry.attempt(() => api<{ backupCodes?: string[] }>(basePath, 'POST', 'twofa/backup-codes/regenerate', { password }));
    if (!r) return;
    entry.idle();
    if (r.ok && Array.isArray(r.data.backupCodes)) return setCodes(r.data.backupCodes);
    entry.refuse(t(errorText(r.data.message)));
  };

  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        {t('twofa.regenerate.open')}
      </Button>
      <Dialog open={open} labelledBy="regenerate-title" describedBy="regenerate-text" onDismiss={close} className="max-w-lg" testId="regenerate-dialog">
        <h2 id="regenerate-title" className="m-0 text-xl font-semibold">
          {t('twofa.regenerate.title')}
        </h2>
        {codes ? (
          <div>
            <p id="regenerate-text" role="status">
              {t('twofa.regenerate.done')}
            </p>
            <BackupCodesPanel t={t} codes={codes} email={email} onSaved={() => undefined} />
            <div className="mt-4 flex justify-end">
              <Button onClick={close}>{t('twofa.regenerate.close')}</Button>
            </div>
          </div>
        ) : (
          <>
            <p id="regenerate-text">{t('twofa.regenerate.text')}</p>
            <PasswordStep t={t} entry={entry} id="regenerate-password" testId="regenerate" submitLabel={t('twofa.regenerate.submit')} onSubmit={(password) => void regenerate(password)} />
            <div className="mt-2 flex justify-end">
              <Button variant="link" onClick={close} disabled={entry.busy}>
                {t('twofa.cancel')}
              </Button>
            </div>
          </>
        )}
      </Dialog>
    </>
  );
}
