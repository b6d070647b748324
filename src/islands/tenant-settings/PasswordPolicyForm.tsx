// Password policy (spec 02 sections 5 and 7): minimum length (a number, at least 8: "password
// must be 8 or more characters") and the three character rules; Save is disabled while the form
// is invalid or unchanged. PATCH /admin/password-policy, then a success message.
// A stricter policy first shows the lock-out preview (decision 0043): whose password falls short.
import { useState, type FormEvent } from 'react';
import { passwordPolicySchema, type LockoutPreview } from '../../shared/tenant-settings/schemas';
import { api, type ApiResult } from '../../shared/api';
import { LockoutDialog, useLockoutPreview } from '../kit/LockoutDialog';
import { getT, type Lang } from '../../shared/i18n';
import { BTN_PRIMARY, BTN_SECONDARY, CARD, TextField, Toast, useToast } from '../kit/admin-parts';

export interface PasswordPolicyValues {
  minimumPasswordLength: number;
  isMixedCaseRequired: boolean;
  isNumberRequired: boolean;
  isSpecialCharacterRequired: boolean;
}

export interface PasswordPolicyFormProps {
  lang: Lang;
  basePath: string;
  policy: PasswordPolicyValues;
}

type Rule = 'isMixedCaseRequired' | 'isNumberRequired' | 'isSpecialCharacterRequired';
const RULES: { key: Rule; label: string }[] = [
  { key: 'isMixedCaseRequired', label: 'passwordPolicy.mixedCase' },
  { key: 'isNumberRequired', label: 'passwordPolicy.number' },
  { key: 'isSpecialCharacterRequired', label: 'passwordPolicy.special' },
];

export default function PasswordPolicyForm(p: PasswordPolicyFormProps) {
  const t = getT(p.lang);
  const { toast, show, close } = useToast();
  const [stored, setStored] = useState(p.policy);
  const [length, setLength] = useState(String(p.policy.minimumPasswordLength));
  const [rules, setRules] = useState<Record<Rule, boolean>>({
    isMixedCaseRequired: p.policy.isMixedCaseRequired,
    isNumberRequired: p.policy.isNumberRequired,
    isSpecialCharacterRequired: p.policy.isSpecialCharacterRequired,
  });
  const [busy, setBusy] = useState(false);

  const values = { minimumPasswordLength: length.trim() === '' ? NaN : Number(length), ...rules };
  const parsed = passwordPolicySchema.safeParse(values);
  const lengthError = parsed.success ? null : t(parsed.error.issues[0]?.message ?? 'admin.passwordPolicy.minLength');
  const changed =
    values.minimumPasswordLength !== stored.minimumPasswordLength || RULES.some(({ key }) => rules[key] !== stored[key]);
  const canSave = parsed.success && changed && !busy;

  const reset = () => {
    setLength(String(stored.minimumPasswordLength));
    setRules({ isMixedCaseRequired: stored.isMixedCaseRequired, isNumberRequired: stored.isNumberRequired, isSpecialCharacterRequired: stored.isSpecialCharacterRequired });
  };

  const saved = (r: ApiResult, next: PasswordPolicyValues) => {
    if (r.ok) {
      setStored(next);
      show('success', t('passwordPolicy.saved'));
      return;
    }
    show('error', t('errors.generic'));
  };

  // A stricter policy makes members change their password: the preview first (decision 0043).
  const lockout = useLockoutPreview(
    () => api<LockoutPreview>(p.basePath, 'POST', 'admin/lockout-preview', { kind: 'password-policy', policy: values }),
    (confirmAffected) => api(p.basePath, 'PATCH', 'admin/password-policy', { ...values, confirmAffected }),
    (r) => saved(r, values),
  );

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!canSave || !parsed.success) return;
    const next = parsed.data;
    const stricter =
      next.minimumPasswordLength > stored.minimumPasswordLength || RULES.some(({ key }) => next[key] && !stored[key]);
    if (stricter) return lockout.open();
    setBusy(true);
    const r = await api(p.basePath, 'PATCH', 'admin/password-policy', next);
    setBusy(false);
    saved(r, next);
  };

  return (
    <div className={`${CARD} max-w-2xl`}>
      <form noValidate onSubmit={save} className="flex flex-col gap-4">
        <TextField
          id="minimum-password-length"
          label={t('passwordPolicy.minLength')}
          type="number"
          inputMode="numeric"
          min={8}
          max={128}
          value={length}
          onChange={setLength}
          error={lengthError}
          hint={t('passwordPolicy.minLengthHint')}
          className="max-w-[10rem]"
        />
        <fieldset className="m-0 border-0 p-0">
          <legend className="mb-2 p-0 font-medium">{t('passwordPolicy.rules')}</legend>
          <div className="flex flex-col gap-2">
            {RULES.map(({ key, label }) => (
              <label key={key} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  className="h-5 w-5 accent-blue-800"
                  checked={rules[key]}
                  onChange={(e) => {
                    const checked = e.target.checked;
                    setRules((r) => ({ ...r, [key]: checked }));
                  }}
                />
                {t(label)}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex gap-2">
          <button type="submit" className={BTN_PRIMARY} disabled={!canSave} aria-describedby={!canSave && !busy ? 'password-policy-why' : undefined}>
            {t('admin.common.save')}
          </button>
          <button type="button" className={BTN_SECONDARY} disabled={!changed || busy} aria-describedby={!changed && !busy ? 'password-policy-why' : undefined} onClick={reset}>
            {t('admin.common.cancel')}
          </button>
        </div>
        {/* A disabled button says why (Digital Agency design system; issue 27 part 7). */}
        {!canSave && !busy && (
          <p id="password-policy-why" className="m-0 text-sm text-slate-700" data-testid="save-why">
            {t(changed ? 'admin.common.fixToSave' : 'admin.common.unchangedHint')}
          </p>
        )}
      </form>
      <LockoutDialog t={t} id="password-lockout" title={t('passwordPolicy.confirmTitle')} state={lockout} />
      <Toast t={t} toast={toast} onClose={close} />
    </div>
  );
}
