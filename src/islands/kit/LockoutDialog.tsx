// The lock-out preview before a change that can keep people out is saved (issue 26, decision
// 0043): who the change affects, by name, and a confirmation that names the count. The save
// sends that count (`confirmAffected`); when the server answers that the count changed
// meanwhile, the dialog shows the new preview and asks again.
import { useRef, useState } from 'react';
import type { ApiResult } from '../../shared/api';
import type { T } from '../../shared/i18n';
import type { LockoutPreview } from '../../shared/tenant-settings/schemas';
import { BTN_DANGER, BTN_PRIMARY, BTN_SECONDARY, InlineNotice } from './admin-parts';
import Dialog from './Dialog';

type Step = { kind: 'closed' } | { kind: 'loading' } | { kind: 'shown'; preview: LockoutPreview; changed: boolean } | { kind: 'failed' };

/**
 * `load` asks the server for the preview; `save(count)` saves with the confirmed count. A save
 * answered 409 `lockout-confirmation-required` loads the preview again and asks again.
 */
export function useLockoutPreview(
  load: () => Promise<ApiResult<LockoutPreview>>,
  save: (confirmAffected: number) => Promise<ApiResult>,
  done: (r: ApiResult) => void,
  cancelled?: () => void,
) {
  const [step, setStep] = useState<Step>({ kind: 'closed' });
  const [busy, setBusy] = useState(false);
  const fetchPreview = async (changed: boolean) => {
    setStep({ kind: 'loading' });
    const r = await load();
    if (!r.ok) {
      setStep({ kind: 'closed' });
      done(r);
      return;
    }
    setStep({ kind: 'shown', preview: r.data as LockoutPreview, changed });
  };
  return {
    step,
    busy,
    open: () => void fetchPreview(false),
    close: () => {
      setStep({ kind: 'closed' });
      cancelled?.();
    },
    confirm: async () => {
      if (step.kind !== 'shown') return;
      setBusy(true);
      const r = await save(step.preview.affected);
      setBusy(false);
      if (r.status === 409 && r.data.message === 'lockout-confirmation-required') return fetchPreview(true);
      setStep({ kind: 'closed' });
      done(r);
    },
  };
}

export interface LockoutDialogProps {
  t: T;
  id: string;
  /** The change in a few words ("Require two-factor authentication"). */
  title: string;
  state: ReturnType<typeof useLockoutPreview>;
  /** The confirm button when nobody is affected (the change's own verb); default "Save". */
  nobodyLabel?: string;
  returnFocus?: () => HTMLElement | null;
}

export function LockoutDialog({ t, id, title, state, nobodyLabel, returnFocus }: LockoutDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const { step, busy } = state;
  const open = step.kind !== 'closed';
  const preview = step.kind === 'shown' ? step.preview : null;
  const n = preview?.affected ?? 0;
  const more = preview ? preview.affected - preview.people.length : 0;
  return (
    <Dialog open={open} labelledBy={`${id}-title`} describedBy={`${id}-text`} onDismiss={() => !busy && state.close()} initialFocus={cancelRef} returnFocus={returnFocus} testId={id}>
      <h2 id={`${id}-title`} className="m-0 text-lg font-semibold">
        {title}
      </h2>
      <div aria-live="polite">
        {!preview ? (
          <p id={`${id}-text`} className="mb-0 mt-3">
            {t('lockout.loading')}
          </p>
        ) : (
          <>
            {step.kind === 'shown' && step.changed ? <InlineNotice kind="error" text={t('lockout.countChanged', { count: n })} /> : null}
            <p id={`${id}-text`} className="mb-0 mt-3 font-semibold" data-testid={`${id}-summary`}>
              {n > 0 ? t(`lockout.summary.${preview.kind}`, { count: n, members: preview.members }) : t('lockout.nobody', { members: preview.members })}
            </p>
            {preview.kind === 'twofa' && n > 0 ? (
              <p className="mb-0 mt-2 text-sm">{t('lockout.enrol', { atSignIn: preview.enrolAtSignIn ?? 0, atRegistration: preview.enrolAtRegistration ?? 0 })}</p>
            ) : null}
            {preview.unknown > 0 ? <p className="mb-0 mt-2 text-sm">{t(`lockout.unknown.${preview.kind === 'password-policy' ? 'password' : 'ip'}`, { count: preview.unknown })}</p> : null}
            {(preview.kind === 'ip-enable' || preview.kind === 'ip-delete') && preview.ownAddress ? (
              <p className="mb-0 mt-2 text-sm">{t(preview.ownAddressAllowed ? 'lockout.ownAddressAllowed' : 'lockout.ownAddressOutside', { ip: preview.ownAddress })}</p>
            ) : null}
            {n > 0 ? (
              <ul className="m-0 mt-3 max-h-60 list-none overflow-y-auto border border-slate-300 rounded p-0" aria-label={t('lockout.listLabel')} tabIndex={0}>
                {preview.people.map((p) => (
                  <li key={p.userId} className="border-b border-slate-200 px-3 py-2 text-sm last:border-b-0">
                    <span className="font-semibold">{p.name}</span> <span className="break-all">{p.email}</span>
                    <span className="block text-slate-700">{t(`lockout.reason.${p.reason}`)}</span>
                  </li>
                ))}
                {more > 0 ? <li className="px-3 py-2 text-sm text-slate-700">{t('lockout.more', { count: more })}</li> : null}
              </ul>
            ) : null}
          </>
        )}
      </div>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <button ref={cancelRef} type="button" className={BTN_SECONDARY} disabled={busy} onClick={state.close}>
          {t('admin.common.cancel')}
        </button>
        <button type="button" className={n > 0 ? BTN_DANGER : BTN_PRIMARY} disabled={busy || !preview} onClick={() => void state.confirm()} data-testid={`${id}-confirm`}>
          {n > 0 ? t('lockout.confirm', { count: n }) : (nobodyLabel ?? t('lockout.confirmNobody'))}
        </button>
      </div>
    </Dialog>
  );
}
