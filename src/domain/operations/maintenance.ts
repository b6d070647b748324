import { and, gt, isNull, lte, or } from 'drizzle-orm';
import { prepared, read, readOne, type Db, type Placeholders } from '../../db/client';
import { maintenanceMessages } from '../../db/schema';
import type { Lang } from '../../shared/i18n';

export type MaintenanceApp = 'accounts' | 'meishi' | 'scheduler';

const inForce = prepared((db, p: Placeholders<{ now: number }>) =>
  db
    .select()
    .from(maintenanceMessages)
    .where(
      and(
        or(isNull(maintenanceMessages.startsAt), lte(maintenanceMessages.startsAt, p.now)),
        or(isNull(maintenanceMessages.endsAt), gt(maintenanceMessages.endsAt, p.now)),
      ),
    )
    .orderBy(maintenanceMessages.createdAt),
);

/** Messages in force now, per app, in the reader's language, as a read of a page's one batch. */
export function maintenanceRead(db: Db, now: number, lang: Lang) {
  return read({ rows: inForce(db, { now }) }, ({ rows }) => {
    const out: Record<MaintenanceApp, string | null> = { accounts: null, meishi: null, scheduler: null };
    for (const r of rows) out[r.app] = lang === 'ja' ? r.messageJa : r.messageEn;
    return out;
  });
}

export function currentMaintenanceMessages(db: Db, now: number, lang: Lang) {
  return readOne(db, maintenanceRead(db, now, lang));
}
