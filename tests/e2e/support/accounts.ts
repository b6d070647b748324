// Accounts the journeys sign in with. Signed-in screens follow the user's own language setting,
// so a journey in the other language signs in as a copy of the demo user (same name, password and
// memberships) whose setting is that language: "admin+en@acme.test" for admin@acme.test, and so on.
// The copies are written once by global-setup.ts, before any test runs (see playwright.config.ts
// for why tests do not touch the database while others run).
import type { Lang } from '../fixtures';

/** Language setting of the demo users the journeys use (src/db/seed.ts). */
export const DEMO_LANGUAGE: Record<string, Lang> = {
  'admin@acme.test': 'ja',
  'user@acme.test': 'ja',
  'multi@example.test': 'en',
};

export function copyEmail(email: string, lang: Lang): string {
  const [local, domain] = email.split('@');
  return `${local}+${lang}@${domain}`;
}

/** The demo account itself when its language is `lang`, else its copy in `lang`. */
export function accountFor(email: string, lang: Lang): string {
  const own = DEMO_LANGUAGE[email];
  if (!own) throw new Error(`${email} is not one of the journeys' demo accounts (support/accounts.ts)`);
  return own === lang ? email : copyEmail(email, lang);
}

/** The copies global-setup.ts creates: [demo email, language]. */
export const COPIES: [string, Lang][] = Object.entries(DEMO_LANGUAGE).map(([email, own]) => [email, own === 'ja' ? 'en' : 'ja']);
