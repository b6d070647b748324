// Two-factor enforcement (spec 02 "Two-factor enforcement", sections 4 and 7): optional or force,
// and whether members may skip the setup (meaningful with force). Save is disabled until
// something differs from the stored settings; going from optional to force asks first, and
// cancelling there (or Cancel on the form) puts the stored settings back. POST /admin/twofa.
// The passkey policy is on the same form (decision 0039): allowed, required for administrators, or
// required for everyone; people it covers add one at their next sign-in.
// Requiring 2FA without skip first shows the lock-out preview (decision 0043): who has no second
// factor, by name, and a confirmation naming the count, which the save carries.
import { useState, type FormEvent } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';
import { PASSKEY_POLICIES, type PasskeyPolicy } from '../../shared/tenant-settings/schemas';
import { BTN_PRIMARY, BTN_SECONDARY, CARD, ConfirmDialog, Toast, useToast } from '../kit/admin-parts';
import { LockoutDialog, useLockoutPreview } from '../kit/LockoutDialog';
import type { ApiResult } from '../../shared/api';
import type { LockoutPreview } from '../../shared/tenant-settings/schemas';

export interface TwofaPolicy {
  isTwofaEnforced: boolean;
  isTwofaSkipAllowed: boolean;
  passkeyPolicy: PasskeyPolicy;
}

export interface TwofaPolicyFormProps {
  lang: Lang;
  basePath: string;
  policy: TwofaPolicy;
  /** With SSO on, members who sign in through the IdP are not asked (their IdP decides). */
  ssoEnabled?: boolean;
}

export default function TwofaPolicyForm(p: TwofaPolicyFormProps) {
  const t = getT(p.lang);
  const { toast, show, close } = useToast();
  const [stored, setStored] = useState<TwofaPolicy>(p.policy);
  const [form, setForm] = useState<TwofaPolicy>(p.policy);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const changed = form.isTwofaEnforced !== stored.isTwofaEnforced || form.isTwofaSkipAllowed !== stored.isTwofaSkipAllowed || form.passkeyPolicy !== stored.passkeyPolicy;
  const reset = () => setForm(stored);

  const saved = (r: ApiResult<TwofaPolicy>) => {
    if (r.ok) {
      const next = { isTwofaEnforced: Boolean(r.data.isTwofaEnforced), isTwofaSkipAllowed: Boolean(r.data.isTwofaSkipAllowed), passkeyPolicy: r.data.passkeyPolicy };
      setStored(next);
      setForm(next);
      show('success', t('twofaPolicy.saved'));
      return;
    }
    show('error', t('errors.generic'));
  };

  const save = async () => {
    setBusy(true);
    const r = await api<TwofaPolicy>(p.basePath, 'POST', 'admin/twofa', form);
    setBusy(false);
    setConfirming(false);
    saved(r);
  };

  // Requiring 2FA without a way to skip can keep people out: the preview first (decision 0043).
  const lockout = useLockoutPreview(
    () => api<LockoutPreview>(p.basePath, 'POST', 'admin/lockout-preview', { kind: 'twofa', isTwofaEnforced: form.isTwofaEnforced, isTwofaSkipAllowed: form.isTwofaSkipAllowed }),
    (confirmAffected) => api(p.basePath, 'POST', 'admin/twofa', { ...form, confirmAffected }),
    (r) => saved(r as ApiResult<TwofaPolicy>),
    // As the confirmation before it: cancelling puts the stored settings back.
    () => setForm(stored),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!changed || busy) return;
    const locksOut = form.isTwofaEnforced && !form.isTwofaSkipAllowed && !(stored.isTwofaEnforced && !stored.isTwofaSkipAllowed);
    if (locksOut) return lockout.open();
    const stricter = (form.isTwofaEnforced && !stored.isTwofaEnforced) || PASSKEY_POLICIES.indexOf(form.passkeyPolicy) > PASSKEY_POLICIES.indexOf(stored.passkeyPolicy);
    if (stricter) return setConfirming(true);
    void save();
  };

  const radio = 'h-5 w-5 accent-blue-800';
  return (
    <div className={`${CARD} max-w-2xl`}>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <fieldset className="m-0 border-0 p-0">
          <legend className="mb-2 p-0 font-semibold">{t('twofaPolicy.legend')}</legend>
          <div className="flex flex-col gap-2">
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="twofa-mode"
                value="optional"
                className={radio}
                checked={!form.isTwofaEnforced}
                onChange={() => setForm((f) => ({ ...f, isTwofaEnforced: false }))}
              />
              {t('twofaPolicy.optional')}
            </label>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="twofa-mode"
                value="force"
                className={radio}
                checked={form.isTwofaEnforced}
                onChange={() => setForm((f) => ({ ...f, isTwofaEnforced: true }))}
              />
              {t('twofaPolicy.force')}
            </label>
          </div>
        </fieldset>
        <div className="ml-7">
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              className="h-5 w-5 accent-blue-800"
              checked={form.isTwofaSkipAllowed}
              disabled={!form.isTwofaEnforced}
              aria-describedby="twofa-skip-hint"
              onChange={(e) => {
                const checked = e.target.checked;
                setForm((f) => ({ ...f, isTwofaSkipAllowed: checked }));
              }}
            />
            <span className={form.isTwofaEnforced ? '' : 'text-slate-700'}>{t('twofaPolicy.skip')}</span>
          </label>
          <p id="twofa-skip-hint" className="m-0 ml-7 mt-1 text-sm text-slate-700">
            {t('twofaPolicy.skipHint')}
          </p>
        </div>
        <fieldset className="m-0 border-0 p-0" aria-describedby="passkey-policy-hint">
          <legend className="mb-2 p-0 font-semibold">{t('passkeys.policy.legend')}</legend>
          <div className="flex flex-col gap-2">
            {PASSKEY_POLICIES.map((v) => (
              <label key={v} className="flex items-center gap-2">
                <input type="radio" name="passkey-policy" value={v} className={radio} checked={form.passkeyPolicy === v} onChange={() => setForm((f) => ({ ...f, passkeyPolicy: v }))} />
                {t(`passkeys.policy.${v}`)}
              </label>
            ))}
          </div>
          <p id="passkey-policy-hint" className="m-0 mt-1 text-sm text-slate-700">
            {t('passkeys.policy.hint')}
            {p.ssoEnabled ? ` ${t('passkeys.policy.ssoHint')}` : ''}
          </p>
        </fieldset>
        <div className="flex gap-2">
          <button type="submit" className={BTN_PRIMARY} disabled={!changed || busy} aria-describedby={!changed && !busy ? 'twofa-policy-why' : undefined}>
            {t('admin.common.save')}
          </button>
          <button type="button" className={BTN_SECONDARY} disabled={!changed || busy} aria-describedby={!changed && !busy ? 'twofa-policy-why' : undefined} onClick={reset}>
            {t('admin.common.cancel')}
          </button>
        </div>
        {/* A disabled button says why (issue 27 part 7). */}
        {!changed && !busy && (
          <p id="twofa-policy-why" className="m-0 text-sm text-slate-700" data-testid="save-why">
            {t('admin.common.unchangedHint')}
          </p>
        )}
      </form>
      <ConfirmDialog
        open={confirming}
        id="twofa-force-confirm"
        title={t(form.isTwofaEnforced && !stored.isTwofaEnforced ? 'twofaPolicy.confirmTitle' : 'passkeys.policy.confirmTitle')}
        text={t(form.isTwofaEnforced && !stored.isTwofaEnforced ? 'twofaPolicy.confirmText' : 'passkeys.policy.confirmText')}
        confirmLabel={t('twofaPolicy.confirm')}
        cancelLabel={t('admin.common.cancel')}
        busy={busy}
        onConfirm={() => void save()}
        onCancel={() => {
          setConfirming(false);
          reset();
        }}
        // Either way Save is disabled afterwards (nothing differs): the focus goes to the chosen mode.
        returnFocus={() => document.querySelector<HTMLInputElement>('input[name="twofa-mode"]:checked')}
      />
      <LockoutDialog
        t={t}
        id="twofa-lockout"
        title={t('twofaPolicy.confirmTitle')}
        state={lockout}
        nobodyLabel={t('twofaPolicy.confirm')}
        returnFocus={() => document.querySelector<HTMLInputElement>('input[name="twofa-mode"]:checked')}
      />
      <Toast t={t} toast={toast} onClose={close} />
    </div>
  );
}
