// Which translation keys an island's code can ask for, read from its source: the island's file
// and every file of src/islands and src/shared it imports (statically or lazily), each string
// literal that is a key or a key namespace of locales/ja.json, and each template literal that
// starts with one ("errors.${code}"). Used by tests/unit/island-texts.test.ts to check the
// texts each island declares in src/island-texts.ts (what the server puts in its pages).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ja from '../../locales/ja.json';
import { flattenTexts } from '../../src/shared/texts';

export const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const keys = Object.keys(flattenTexts(ja));
const namespaces = new Set(keys.flatMap((k) => k.split('.').slice(1).map((_, i, parts) => k.split('.').slice(0, parts.length - i).join('.'))));

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const f of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(f) && /\.(ts|tsx)$/.test(f)) return f;
  }
  return null;
}

/** The island's file and the src/islands and src/shared files it reaches through imports. */
export function islandFiles(name: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)'([^']+)'/g)) {
      // Type-only imports bring no code.
      const line = text.slice(text.lastIndexOf('\n', m.index) + 1, m.index);
      if (/^\s*import\s+type\b/.test(line)) continue;
      const target = resolveImport(file, m[1]!);
      const rel = target ? relative(SRC, target) : '';
      if (target && (rel.startsWith('islands/') || rel.startsWith('shared/'))) visit(target);
    }
  };
  visit(islandFile(name));
  return [...seen];
}

/** The island's own file, as the browser entry (src/client.ts) imports it: islands/<feature>/<name>. */
export function islandFile(name: string): string {
  const client = readFileSync(join(SRC, 'client.ts'), 'utf8');
  const path = new RegExp(`^\\s+${name}: \\(\\) => import\\('\\./(islands/[\\w/-]+)'\\)`, 'm').exec(client)?.[1];
  if (!path) throw new Error(`${name} is not hydrated by src/client.ts`);
  return join(SRC, `${path}.tsx`);
}

/** Keys (exact) and key prefixes (namespaces, "errors." of `errors.${x}`) the code can translate. */
export function keysIn(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = new Set<string>();
  for (const m of text.matchAll(/['"]([a-zA-Z][\w-]*(?:\.[\w-]+)+)['"]/g)) {
    if (keys.includes(m[1]!) || namespaces.has(m[1]!)) found.add(m[1]!);
  }
  for (const m of text.matchAll(/`([a-zA-Z][\w-]*(?:\.[\w-]+)*)\.\$\{/g)) {
    if (namespaces.has(m[1]!)) found.add(`${m[1]}.`);
  }
  for (const m of text.matchAll(/`([a-zA-Z][\w-]*(?:\.[\w-]+)*\.[\w-]*)\$\{/g)) {
    // "passwordForm.requirement.min${x}": the namespace before the partial word.
    const ns = m[1]!.slice(0, m[1]!.lastIndexOf('.'));
    if (namespaces.has(ns) && !m[1]!.endsWith('.')) found.add(`${ns}.`);
  }
  return [...found];
}

export function keysOfIsland(name: string): { key: string; file: string }[] {
  return islandFiles(name).flatMap((file) => keysIn(file).map((key) => ({ key, file: relative(SRC, file) })));
}
