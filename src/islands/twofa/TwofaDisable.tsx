// Turning two-factor authentication off (spec 01 section 4: "Two-factor can be turned off when
// on"): a confirmation dialog, then DELETE twofa; the result is shown on my-account.
import { useRef, useState } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';
import Dialog from '../kit/Dialog';
import { buttonClass } from '../kit/Button';
import { BUTTON_SECONDARY, failedSetupUrl } from './twofa-parts';

export interface TwofaDisableProps {
  lang: Lang;
  basePath: string;
}

const DANGER = buttonClass('danger');

export default function TwofaDisable({ lang, basePath }: TwofaDisableProps) {
  const t = getT(lang);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);

  const turnOff = async () => {
    if (busy) return;
    setBusy(true);
    const r = await api(basePath, 'DELETE', 'twofa');
    window.location.assign(r.ok ? `${basePath}/my-account?notice=twofa-disabled` : failedSetupUrl(basePath, r));
  };

  return (
    <>
      <button type="button" onClick={() => setOpen(true)} className={DANGER}>
        {t('twofa.turnOff')}
      </button>
      <Dialog open={open} labelledBy="twofa-off-title" describedBy="twofa-off-text" onDismiss={() => !busy && setOpen(false)} initialFocus={cancelRef} testId="twofa-off-dialog">
        <h2 id="twofa-off-title" className="m-0 text-xl font-semibold">
          {t('twofa.confirmTitle')}
        </h2>
        <p id="twofa-off-text">{t('twofa.confirmText')}</p>
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <button ref={cancelRef} type="button" onClick={() => setOpen(false)} disabled={busy} className={BUTTON_SECONDARY}>
            {t('twofa.cancel')}
          </button>
          <button type="button" onClick={() => void turnOff()} disabled={busy} className={DANGER}>
            {t('twofa.confirmTurnOff')}
          </button>
        </div>
      </Dialog>
    </>
  );
}
