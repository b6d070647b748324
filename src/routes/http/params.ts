// Path parameters. An id that is not a positive integer is a 404 like a missing one: an answer
// never tells what exists.
import { AppError } from '../../domain/errors';

export function idParam(value: string | undefined): number {
  const id = Number(value);
  if (!value || !/^\d+$/.test(value) || !Number.isSafeInteger(id) || id <= 0) throw new AppError('not-found');
  return id;
}
