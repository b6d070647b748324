// Scheduled cleanup (docs/decisions/0019-scheduled-cleanup.md): rows whose life has ended are
// deleted, so the tables that grow with every sign-in stay small. Each of them already refuses an
// expired row on its own; this only reclaims space. A grace period keeps rows a little past
// their end, so a request that read a row just before it expired never races the delete.
import { lt, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Deps } from '../../deps';
import {
  emailLinks,
  handoffCodes,
  importJobs,
  loginChallenges,
  outlookAddinTokens,
  passkeyChallenges,
  passwordResets,
  rememberedDevices,
  samlAssertions,
  samlRequests,
  sessions,
  throttles,
  twofaPending,
} from '../../db/schema';

export const CLEANUP_GRACE_MS = 60 * 60_000;
/** Rows per delete statement: a D1 statement has a time limit, so big backlogs go in slices. */
export const CLEANUP_SLICE = 500;
const MAX_SLICES_PER_TABLE = 200;

/** Tables and the column that says when a row stops mattering. */
const EXPIRING: [string, SQLiteTable, SQLiteColumn][] = [
  ['sessions', sessions, sessions.expiresAt],
  ['handoff_codes', handoffCodes, handoffCodes.expiresAt],
  ['login_challenges', loginChallenges, loginChallenges.expiresAt],
  ['password_resets', passwordResets, passwordResets.expiresAt],
  ['email_links', emailLinks, emailLinks.expiresAt],
  ['twofa_pending', twofaPending, twofaPending.expiresAt],
  ['remembered_devices', rememberedDevices, rememberedDevices.expiresAt],
  ['saml_requests', samlRequests, samlRequests.expiresAt],
  ['saml_assertions', samlAssertions, samlAssertions.expiresAt],
  ['outlook_addin_tokens', outlookAddinTokens, outlookAddinTokens.expiresAt],
  // Every login page view makes one (the autofill's), used or not (decision 0039).
  ['passkey_challenges', passkeyChallenges, passkeyChallenges.expiresAt],
  // A throttle window that has ended counts nothing (hit() restarts it), so its row can go.
  ['throttles', throttles, throttles.resetAt],
  // A finished import job's row only answered its progress call (decision 0030); the import log
  // keeps the history. Its pieces and staged rows are gone already (or go with it, by cascade).
  ['import_jobs', importJobs, importJobs.finishedAt],
];

export type CleanupReport = Record<string, number>;

/** Deletes expired rows table by table, in slices; returns how many rows each table lost. */
export async function cleanupExpired(deps: Pick<Deps, 'db' | 'clock'>): Promise<CleanupReport> {
  const { db, clock } = deps;
  const cutoff = clock.now() - CLEANUP_GRACE_MS;
  const report: CleanupReport = {};
  for (const [name, table, column] of EXPIRING) {
    let total = 0;
    for (let i = 0; i < MAX_SLICES_PER_TABLE; i++) {
      const slice: SQL = sql`rowid in (select rowid from ${table} where ${lt(column, cutoff)} limit ${CLEANUP_SLICE})`;
      const gone = await db.delete(table).where(slice).returning({ one: sql<number>`1` });
      total += gone.length;
      if (gone.length < CLEANUP_SLICE) break;
    }
    report[name] = total;
  }
  return report;
}
