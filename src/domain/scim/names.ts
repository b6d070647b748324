// A person's name from a SCIM User (decision 0040). The portal keeps one name per person; SCIM
// sends its parts. When the IdP sends a given or family name, the portal writes them in the order
// of the person's language: family name first for Japanese ("山田 太郎", also for a name in Latin
// letters: "Yamada Taro", the order Japanese public bodies use since 2020), given name first for
// English. `name.formatted` is used only without parts: IdPs build it in the Western order
// (Entra's default mapping joins givenName and surname), which would put a Japanese name the
// wrong way round. Without any of these: `displayName`, then the address's local part.
import type { Lang } from '../../shared/i18n';

export interface ScimName {
  givenName?: string | null;
  familyName?: string | null;
  middleName?: string | null;
  formatted?: string | null;
}

/** The longest name the portal stores (the admin screens' limit). */
export const NAME_MAX = 255;

const clean = (v: unknown): string => (typeof v === 'string' ? v.replace(/\s+/gu, ' ').trim() : '');

/** The portal's name for a person from the parts SCIM sent, in the order of `lang`. */
export function portalName(input: { name?: ScimName | null; displayName?: string | null; userName: string }, lang: Lang): string {
  const given = clean(input.name?.givenName);
  const family = clean(input.name?.familyName);
  const middle = clean(input.name?.middleName);
  let name: string;
  if (given || family) name = (lang === 'ja' ? [family, given] : [given, middle, family]).filter(Boolean).join(' ');
  else name = clean(input.name?.formatted) || clean(input.displayName) || input.userName.split('@')[0]!;
  return [...name].slice(0, NAME_MAX).join('');
}

/** `preferredLanguage` / `locale` ("ja-JP", "en_US", "en") as the portal's language, or null. */
export function languageOf(...values: unknown[]): Lang | null {
  for (const v of values) {
    if (typeof v !== 'string') continue;
    const tag = v.trim().toLowerCase();
    if (tag === 'ja' || tag.startsWith('ja-') || tag.startsWith('ja_')) return 'ja';
    if (tag === 'en' || tag.startsWith('en-') || tag.startsWith('en_')) return 'en';
  }
  return null;
}
