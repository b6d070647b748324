// Password inputs with a show/hide toggle, and the live requirements checklist of a new password
// (spec 01 section 5): the tenant policy's rules plus the guessability test (zxcvbn score >= 2,
// the user's email penalised). The scorer and its dictionaries (hundreds of KB) load on demand,
// when a form that needs them is on screen; until then the strength line reads "checking".
import { useEffect, useMemo, useState, type Ref } from 'react';
import { PasswordInput } from '../kit/PasswordInput';
import type { T } from '../../shared/i18n';
import { checkRequirements, MIN_ACCEPTED_SCORE, type PasswordPolicy } from '../../shared/account/password-policy';

type Scorer = (password: string, email?: string | null) => number;
let scorer: Promise<Scorer> | null = null;

/** Loads the zxcvbn scorer once per page (its own code-split chunk). */
export function loadScorer(): Promise<Scorer> {
  scorer ??= import('../../shared/account/password-strength').then((m) => m.passwordScore);
  return scorer;
}

/** The score of `password` (-1..4), or null while the scorer loads. */
export function useScore(password: string, email: string | null): number | null {
  const [fn, setFn] = useState<Scorer | null>(null);
  useEffect(() => {
    let live = true;
    void loadScorer().then((s) => live && setFn(() => s));
    return () => {
      live = false;
    };
  }, []);
  return useMemo(() => (fn ? fn(password, email) : null), [fn, password, email]);
}

/** State of a new password and its confirmation, checked against a policy as the user types. */
export function useNewPassword(policy: PasswordPolicy | null, email: string | null) {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const score = useScore(password, email);
  const requirements = policy ? checkRequirements(password, policy) : [];
  const meetsPolicy = policy !== null && requirements.every((r) => r.met);
  const strong = score !== null && score >= MIN_ACCEPTED_SCORE;
  const acceptable = meetsPolicy && strong;
  const matches = password === confirmation;
  return {
    password,
    setPassword,
    confirmation,
    setConfirmation,
    score,
    requirements,
    strong,
    acceptable,
    matches,
    valid: acceptable && matches && password !== '',
  };
}
export type NewPasswordState = ReturnType<typeof useNewPassword>;

// The field with its Show/Hide toggle is the kit's; re-exported for the islands that import it here.
export { PasswordInput, type PasswordInputProps } from '../kit/PasswordInput';

/** The checklist: one line per policy rule and one for strength, each met or not, in words too. */
export function RequirementList({ t, id, policy, state }: { t: T; id: string; policy: PasswordPolicy | null; state: NewPasswordState }) {
  if (!policy) {
    return (
      <p id={id} className="m-0 text-sm text-slate-700">
        {t('passwordForm.loadingPolicy')}
      </p>
    );
  }
  const lines: { key: string; met: boolean; text: string }[] = state.requirements.map((r) => ({
    key: r.key,
    met: r.met,
    text: t(`passwordForm.requirement.${r.key}`, { count: policy.minimum_password_length }),
  }));
  const checking = state.score === null;
  lines.push({ key: 'strength', met: state.strong, text: t('passwordForm.requirement.strength') });
  return (
    <div>
      <p id={`${id}-title`} className="m-0 text-sm font-medium">
        {t('passwordForm.requirements')}
      </p>
      <ul id={id} aria-labelledby={`${id}-title`} className="m-0 mt-1 list-none p-0 text-sm" data-testid="password-requirements">
        {lines.map((l) => {
          const pending = l.key === 'strength' && checking && state.password !== '';
          return (
            <li key={l.key} data-met={l.met ? 'true' : 'false'} data-requirement={l.key} className={`flex items-start gap-2 py-0.5 ${l.met ? 'text-green-800' : 'text-slate-800'}`}>
              <span aria-hidden="true" className="w-4 shrink-0 text-center font-bold">
                {l.met ? '✓' : pending ? '…' : '✗'}
              </span>
              <span>
                {l.text}
                <span className="sr-only">
                  {' '}
                  ({t(l.met ? 'passwordForm.met' : pending ? 'passwordForm.checking' : 'passwordForm.unmet')})
                </span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export interface NewPasswordFieldsProps {
  t: T;
  idPrefix: string;
  policy: PasswordPolicy | null;
  state: NewPasswordState;
  passwordLabel: string;
  confirmationLabel: string;
  /** A server message about the new password, shown under it until the user edits it. */
  passwordError?: string | null;
  confirmationError?: string | null;
  /** Field names for a form that also posts without JavaScript. */
  names?: { password: string; confirmation: string };
  onEdit?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  disabled?: boolean;
}

/** New password, its checklist, and the confirmation (with the mismatch message once typed). */
export function NewPasswordFields(p: NewPasswordFieldsProps) {
  const { t, state } = p;
  const listId = `${p.idPrefix}-requirements`;
  const mismatch = state.confirmation !== '' && !state.matches ? t('passwordRules.confirmationMismatch') : null;
  return (
    <>
      <PasswordInput
        t={t}
        id={`${p.idPrefix}-password`}
        name={p.names?.password}
        label={p.passwordLabel}
        value={state.password}
        onChange={(v) => {
          state.setPassword(v);
          p.onEdit?.();
        }}
        autoComplete="new-password"
        error={p.passwordError}
        describedBy={listId}
        inputRef={p.inputRef}
        disabled={p.disabled}
      />
      <RequirementList t={t} id={listId} policy={p.policy} state={state} />
      <PasswordInput
        t={t}
        id={`${p.idPrefix}-confirmation`}
        name={p.names?.confirmation}
        label={p.confirmationLabel}
        value={state.confirmation}
        onChange={(v) => {
          state.setConfirmation(v);
          p.onEdit?.();
        }}
        autoComplete="new-password"
        error={mismatch ?? p.confirmationError}
        disabled={p.disabled}
      />
    </>
  );
}
