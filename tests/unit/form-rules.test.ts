// The sign-in islands check fields with src/shared/form-rules.ts (no zod in the browser); the
// server validates with the zod schemas built from the same constants. Both must give the same
// verdict and message for every input.
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { BACKUP_CODE_MAX_LENGTH, backupCodeProblem, EMAIL_PATTERN, emailProblem, otpProblem } from '../../src/shared/form-rules';
import { backupCodeSchema, emailSchema, otpSchema } from '../../src/shared/schemas';

const EMAILS = [
  '',
  '   ',
  'user@acme.test',
  '  user@acme.test  ',
  'User.Name+tag@sub.example.co.jp',
  "o'brien@example.com",
  'a@b.c',
  'a@b.co',
  'no-at-sign',
  'two@@example.com',
  'dot.@example.com',
  '.dot@example.com',
  'dot..dot@example.com',
  'user@-example.com',
  'user@example',
  'user@exa_mple.com',
  'ユーザー@example.jp',
  'user@例え.jp',
  'user name@example.com',
  `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`,
  `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`,
  `x@${'e'.repeat(300)}.com`,
];

describe('form rules shared by the islands and the zod schemas', () => {
  it("is zod's own email pattern", () => {
    expect(EMAIL_PATTERN.source).toBe(z.regexes.email.source);
    expect(EMAIL_PATTERN.flags).toBe(z.regexes.email.flags);
  });

  it.each(EMAILS.map((e) => [e]))('email %j: same verdict and message as emailSchema', (value) => {
    const zod = emailSchema.safeParse(value);
    expect(emailProblem(value)).toBe(zod.success ? null : zod.error.issues[0]!.message);
  });

  it('the corpus has valid, empty, malformed and too long addresses', () => {
    const verdicts = new Set(EMAILS.map(emailProblem));
    expect(verdicts).toEqual(new Set([null, 'validation.required', 'validation.emailInvalid']));
    expect(emailProblem(EMAILS.at(-3)!)).toBeNull();
    expect(emailProblem(EMAILS.at(-2)!)).toBe('validation.emailInvalid');
  });

  it.each(['123456', '12345', '1234567', '', '１２３４５６', '12a456', ' 123456', '123456\n'].map((c) => [c]))('one-time code %j: same as otpSchema', (value) => {
    const zod = otpSchema.safeParse({ otp: value });
    expect(otpProblem(value)).toBe(zod.success ? null : zod.error.issues[0]!.message);
  });

  it.each(['12345 67890', '1234567890', '', '   ', ' 12345 67890 ', 'x'.repeat(BACKUP_CODE_MAX_LENGTH)].map((c) => [c]))('backup code %j (trimmed, at most the field length): same as backupCodeSchema', (value) => {
    const zod = backupCodeSchema.safeParse({ backupCode: value.trim() });
    expect(backupCodeProblem(value)).toBe(zod.success ? null : zod.error.issues[0]!.message);
  });
});
