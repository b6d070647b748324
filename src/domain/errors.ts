// Domain errors name a code of the catalogue (src/shared/error-codes.ts), which alone decides the
// HTTP status and the word on the wire; one handler per surface turns them into answers.
import { ERRORS, VALIDATION_FAILED, wordOf, type ErrorCode, type ErrorStatus } from '../shared/error-codes';

export type { ErrorCode };

export class AppError extends Error {
  readonly status: ErrorStatus;
  constructor(
    readonly code: ErrorCode | typeof VALIDATION_FAILED,
    readonly details: Record<string, unknown> = {},
  ) {
    super(code);
    this.name = 'AppError';
    this.status = code === VALIDATION_FAILED ? 422 : ERRORS[code].status;
  }

  /** What the answer's `message` says. */
  get word(): string {
    return this.code === VALIDATION_FAILED ? VALIDATION_FAILED : wordOf(this.code);
  }
}

/**
 * What a field error says: a text key (with its parameters) that the edge translates into the
 * request's language, or a text the spec gives verbatim (its English server messages). The domain
 * names keys; it never translates.
 */
export type FieldText = string | { key: string; params?: Record<string, string | number> };

export const text = (key: string, params?: Record<string, string | number>): FieldText => ({ key, ...(params ? { params } : {}) });

/** Field errors (422, the validation envelope). */
export class ValidationError extends AppError {
  constructor(readonly errors: Record<string, FieldText[]>) {
    super(VALIDATION_FAILED, { errors });
  }
}

/** The field errors in a language (`t` of the request), as the envelope answers them. */
export function fieldTexts(t: (key: string, params?: Record<string, string | number>) => string, errors: Record<string, FieldText[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(errors).map(([field, texts]) => [field, texts.map((x) => (typeof x === 'string' ? x : t(x.key, x.params)))]));
}

/**
 * Whether a database error is a unique-index violation on `table` (libSQL and D1 both report
 * "UNIQUE constraint failed: <table>.<column>", D1 sometimes only in the error's cause).
 */
export function isUniqueViolation(e: unknown, table: string): boolean {
  const text = `${String(e)} ${String((e as { cause?: unknown } | null)?.cause ?? '')}`;
  return text.includes(`UNIQUE constraint failed: ${table}.`);
}
