import { drizzle } from 'drizzle-orm/d1';
import * as schema from '../db/schema';
import type { Db } from '../db/client';

type D1 = Parameters<typeof drizzle>[0];

export function openD1(binding: D1): Db {
  // drizzle's D1 and libSQL databases expose the same async query builder and batch();
  // the rest of the code is written against that shared surface only.
  return drizzle(binding, { schema }) as unknown as Db;
}
