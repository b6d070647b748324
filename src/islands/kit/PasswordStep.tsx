// A code step whose "code" is the account's password (verify-password, regenerating backup
// codes): the kit's step (one attempt at a time, the limit's countdown, the message) around a
// PasswordInput, with the verify-password texts. Decision 0033.
import type { T } from '../../shared/i18n';
import { CodeStepForm, type CodeEntry } from './code-step';
import { PasswordInput } from './PasswordInput';

export interface PasswordStepProps {
  t: T;
  entry: CodeEntry;
  id: string;
  testId: string;
  submitLabel?: string;
  block?: boolean;
  onSubmit: (password: string) => void;
}

export default function PasswordStep({ t, entry, id, testId, submitLabel, block, onSubmit }: PasswordStepProps) {
  return (
    <CodeStepForm
      t={t}
      entry={entry}
      ns="verifyPassword"
      testId={testId}
      hint=""
      submitLabel={submitLabel}
      lockedText={(seconds) => t('verifyPassword.throttled', { seconds })}
      onSubmit={onSubmit}
      complete
      block={block}
      field={
        <PasswordInput
          t={t}
          id={id}
          label={t('verifyPassword.password')}
          value={entry.code}
          onChange={entry.setCode}
          autoComplete="current-password"
          error={entry.fieldError}
          inputRef={entry.inputRef}
        />
      }
    />
  );
}
