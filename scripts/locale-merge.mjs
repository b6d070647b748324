// Merges a JSON fragment {"ja": {...}, "en": {...}} into locales/ja.json and locales/en.json
// (deep merge, existing keys overwritten), keeping 2-space formatting. Usage:
//   node scripts/locale-merge.mjs fragment.json
import { readFileSync, writeFileSync } from 'node:fs';

const fragment = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const merge = (a, b) => {
  for (const [k, v] of Object.entries(b)) a[k] = v && typeof v === 'object' && !Array.isArray(v) ? merge(a[k] ?? {}, v) : v;
  return a;
};
for (const lang of ['ja', 'en']) {
  if (!fragment[lang]) continue;
  const file = new URL(`../locales/${lang}.json`, import.meta.url);
  const data = merge(JSON.parse(readFileSync(file, 'utf8')), fragment[lang]);
  writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
}
