import { and, gt, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { maintenanceMessages } from '../../db/schema';
import type { Lang } from '../../shared/i18n';

export type MaintenanceApp = 'accounts' | 'meishi' | 'scheduler';

/** Messages in force now, per app, in the reader's language. */
export async function currentMaintenanceMessages(db: Db, now: number, lang: Lang) {
  const rows = await db
    .select()
    .from(maintenanceMessages)
    .where(
      and(
        or(isNull(maintenanceMessages.startsAt), lte(maintenanceMessages.startsAt, now)),
        or(isNull(maintenanceMessages.endsAt), gt(maintenanceMessages.endsAt, now)),
      ),
    )
    .orderBy(maintenanceMessages.createdAt);
  const out: Record<MaintenanceApp, string | null> = { accounts: null, meishi: null, scheduler: null };
  for (const r of rows) out[r.app] = lang === 'ja' ? r.messageJa : r.messageEn;
  return out;
}
