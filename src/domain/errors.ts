// Domain errors carry the spec's code word (one typed union, src/shared/error-codes.ts); one
// handler per surface turns them into answers.
import { VALIDATION_FAILED, type ErrorCode } from '../shared/error-codes';

export type { ErrorCode };

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode | typeof VALIDATION_FAILED,
    readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 502 = 400,
    readonly details: Record<string, unknown> = {},
  ) {
    super(code);
    this.name = 'AppError';
  }
}

export class ValidationError extends AppError {
  constructor(readonly errors: Record<string, string[]>) {
    super(VALIDATION_FAILED, 422, { errors });
  }
}

/**
 * Whether a database error is a unique-index violation on `table` (libSQL and D1 both report
 * "UNIQUE constraint failed: <table>.<column>", D1 sometimes only in the error's cause).
 */
export function isUniqueViolation(e: unknown, table: string): boolean {
  const text = `${String(e)} ${String((e as { cause?: unknown } | null)?.cause ?? '')}`;
  return text.includes(`UNIQUE constraint failed: ${table}.`);
}
