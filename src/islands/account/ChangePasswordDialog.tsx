// The change-password dialog (spec 01 "Change password dialog", sections 4, 5 and 8): current,
// new and repeat fields with show/hide, the live checklist, Save (enabled once the form is valid,
// the password acceptable and the confirmation matching) and Cancel, or Maybe Later when the
// dialog is forced after login (password not meeting the policy, or too easy to guess).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';
import { readNewPasswordMessage, type PasswordPolicy } from '../../shared/account/password-policy';
import Dialog from '../kit/Dialog';
import { NewPasswordFields, PasswordInput, useNewPassword } from './PasswordFields';
import { buttonClass } from '../kit/Button';

/** Why the dialog was forced on the user after login; null when they opened it themselves. */
export type ForcedReason = 'non-compliant' | 'weak' | null;

export interface ChangePasswordDialogProps {
  lang: Lang;
  basePath: string;
  open: boolean;
  forced: ForcedReason;
  /** The policy the new password must meet; null while it loads. */
  policy: PasswordPolicy | null;
  email: string;
  /** Cancel, Maybe Later, Escape, or Close/Continue after a change. */
  onClose: (changed: boolean) => void;
  returnFocus?: () => HTMLElement | null;
}

type Errors = { current: string | null; next: string | null; confirmation: string | null; form: string | null };
const NO_ERRORS: Errors = { current: null, next: null, confirmation: null, form: null };

export default function ChangePasswordDialog(p: ChangePasswordDialogProps) {
  const t = getT(p.lang);
  const [current, setCurrent] = useState('');
  const next = useNewPassword(p.policy, p.email);
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const currentRef = useRef<HTMLInputElement>(null);
  const doneRef = useRef<HTMLButtonElement>(null);

  // Every opening starts from an empty form.
  useEffect(() => {
    if (!p.open) return;
    setCurrent('');
    next.setPassword('');
    next.setConfirmation('');
    setErrors(NO_ERRORS);
    setDone(false);
  }, [p.open]);
  useEffect(() => {
    if (done) doneRef.current?.focus();
  }, [done]);

  const canSave = current !== '' && next.valid && !busy;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!canSave) return;
    setBusy(true);
    setErrors(NO_ERRORS);
    const r = await api<{ errors?: Record<string, string[]>; duration?: number }>(p.basePath, 'PATCH', 'password', {
      current_password: current,
      new_password: next.password,
      new_password_confirmation: next.confirmation,
    });
    setBusy(false);
    if (r.ok) {
      setDone(true);
      return;
    }
    const fieldErrors = r.data.errors ?? {};
    if (r.status === 422 && (r.data.message === 'current-password-wrong' || fieldErrors.current_password)) {
      setErrors({ ...NO_ERRORS, current: t('changePassword.currentWrong') });
      currentRef.current?.focus();
      return;
    }
    if (r.status === 422 && (fieldErrors.new_password || fieldErrors.new_password_confirmation)) {
      const first = fieldErrors.new_password?.[0];
      const read = first ? readNewPasswordMessage(first) : null;
      setErrors({
        ...NO_ERRORS,
        next: read === null ? null : read.key === 'raw' ? read.text : t(`passwordRules.server.${read.key}`, { count: read.key === 'length' ? read.count : 0 }),
        confirmation: fieldErrors.new_password_confirmation ? t('passwordRules.confirmationMismatch') : null,
      });
      return;
    }
    if (r.status === 429 && typeof r.data.duration === 'number') {
      setErrors({ ...NO_ERRORS, form: t('changePassword.throttled', { seconds: r.data.duration }) });
      return;
    }
    setErrors({ ...NO_ERRORS, form: t('changePassword.failed') });
  };

  const dismiss = () => p.onClose(done);
  const secondary = 'rounded border border-slate-400 bg-white px-4 py-2 text-base text-slate-900 hover:bg-slate-100';
  const primary = buttonClass('primary');

  return (
    <Dialog
      open={p.open}
      labelledBy="change-password-title"
      describedBy={p.forced ? 'change-password-reason' : undefined}
      onDismiss={busy ? undefined : dismiss}
      initialFocus={currentRef}
      returnFocus={p.returnFocus}
      testId="change-password-dialog"
      className="max-w-lg"
    >
      <h2 id="change-password-title" className="mt-0 text-xl font-semibold">
        {t('changePassword.title')}
      </h2>
      {p.forced && !done && (
        <p id="change-password-reason" className="rounded border border-amber-700 bg-amber-50 p-3 text-amber-950">
          {t(p.forced === 'weak' ? 'changePassword.forcedWeak' : 'changePassword.forcedNonCompliant')}
        </p>
      )}
      <div aria-live="polite">
        {done && (
          <p role="status" className="rounded border border-green-700 bg-green-50 p-3 text-green-900" data-testid="change-password-success">
            {t('changePassword.success')}
          </p>
        )}
        {errors.form && (
          <p role="alert" className="rounded border border-red-700 bg-red-50 p-3 text-red-900" data-testid="change-password-error">
            {errors.form}
          </p>
        )}
      </div>
      {done ? (
        <div className="mt-4 text-right">
          <button ref={doneRef} type="button" className={primary} onClick={dismiss}>
            {t(p.forced ? 'changePassword.continue' : 'common.close')}
          </button>
        </div>
      ) : (
        <form noValidate onSubmit={(e) => void save(e)} className="flex flex-col gap-4">
          <PasswordInput
            t={t}
            id="change-password-current"
            label={t('changePassword.current')}
            value={current}
            onChange={(v) => {
              setCurrent(v);
              // The server's "wrong" verdict is about the old value: it goes as soon as it changes.
              if (errors.current) setErrors((x) => ({ ...x, current: null }));
            }}
            autoComplete="current-password"
            error={errors.current}
            inputRef={currentRef}
          />
          <NewPasswordFields
            t={t}
            idPrefix="change-password-new"
            policy={p.policy}
            state={next}
            passwordLabel={t('changePassword.new')}
            confirmationLabel={t('changePassword.repeat')}
            passwordError={errors.next}
            confirmationError={errors.confirmation}
            onEdit={() => (errors.next || errors.confirmation) && setErrors((x) => ({ ...x, next: null, confirmation: null }))}
          />
          <div className="mt-2 flex justify-end gap-2">
            <button type="button" className={secondary} onClick={dismiss} disabled={busy}>
              {t(p.forced ? 'changePassword.maybeLater' : 'changePassword.cancel')}
            </button>
            <button type="submit" className={primary} disabled={!canSave} aria-describedby={!canSave && !busy ? 'change-password-why' : undefined}>
              {t('changePassword.save')}
            </button>
          </div>
          {/* A disabled button says why (issue 27 part 7). */}
          {!canSave && !busy && (
            <p id="change-password-why" className="m-0 text-right text-sm text-slate-700" data-testid="save-why">
              {t('changePassword.saveHint')}
            </p>
          )}
        </form>
      )}
    </Dialog>
  );
}
