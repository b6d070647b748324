// Domain errors carry the spec's code word; one handler per surface turns them into answers.
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 502 = 400,
    readonly details: Record<string, unknown> = {},
  ) {
    super(code);
    this.name = 'AppError';
  }
}

export class ValidationError extends AppError {
  constructor(readonly errors: Record<string, string[]>) {
    super('The given data was invalid.', 422, { errors });
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
