// The name of the tenant's zone beside a time ("2026/11/25 (水) 07:23:12 日本時間"). Apart from
// dates.ts: an island carries the texts of every key its imports mention (src/island-texts.ts),
// and most islands that format dates or countdowns never name a zone.
import { TENANT_TIME_ZONE } from './dates';

/** The i18n key naming a zone beside a time ("日本時間", "JST"). */
export function zoneLabelKey(timeZone: string = TENANT_TIME_ZONE): string {
  return timeZone === 'Asia/Tokyo' ? 'dates.zoneJst' : 'dates.zoneUtc';
}
