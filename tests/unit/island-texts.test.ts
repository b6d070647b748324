// Every page carries only the texts of its islands (src/island-texts.ts, decision 0029). These
// checks read each island's source (and what it imports) for the keys it can translate: a key no
// entry covers would reach the browser untranslated; an entry that covers nothing is dead weight.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import ja from '../../locales/ja.json';
import { ISLAND_TEXTS, type IslandName } from '../../src/island-texts';
import { coveredBy, flattenTexts } from '../../src/shared/texts';
import { keysIn, keysOfIsland, SRC } from '../support/island-keys';

const names = Object.keys(ISLAND_TEXTS) as IslandName[];
const allKeys = Object.keys(flattenTexts(ja));
/** A used key, or a used prefix ("errors." of `errors.${code}`) as its namespace. */
const asKey = (used: string) => used.replace(/\.$/, '');

describe('island texts (src/island-texts.ts)', () => {
  it('lists exactly the islands the browser entry hydrates', () => {
    const client = readFileSync(`${SRC}client.ts`, 'utf8');
    // Each island lives in its feature's folder (islands/<feature>/<Name>.tsx) and is named for its file.
    const hydrated = [...client.matchAll(/^\s+(\w+): \(\) => import\('\.\/islands\/[\w-]+\/(\w+)'\)/gm)].map((m) => {
      expect(m[1]).toBe(m[2]);
      return m[1];
    });
    expect(hydrated.sort()).toEqual([...names].sort());
  });

  it.each(names)('%s: every key its code can translate is on the page', (name) => {
    const declared = ISLAND_TEXTS[name];
    const uncovered = keysOfIsland(name).filter(({ key }) => !declared.some((d) => coveredBy(asKey(key), d)));
    expect(uncovered).toEqual([]);
  });

  it.each(names)('%s: every entry covers a key its code uses, and exists', (name) => {
    const used = keysOfIsland(name).map(({ key }) => asKey(key));
    const dead = ISLAND_TEXTS[name].filter((d) => !used.some((u) => coveredBy(u, d) || coveredBy(d, u)));
    expect(dead).toEqual([]);
    const missing = ISLAND_TEXTS[name].filter((d) => !allKeys.some((k) => coveredBy(k, d)));
    expect(missing).toEqual([]);
  });

  it('the reading finds literal keys, key namespaces and template prefixes', () => {
    // Guards the checks above against a reader that silently finds nothing.
    const login = keysIn(`${SRC}islands/sign-in/LoginForm.tsx`);
    expect(login).toEqual(expect.arrayContaining(['login.next']));
    // A refusal's text comes from the error catalogue the island imports.
    expect(keysOfIsland('LoginForm').map((k) => k.key)).toEqual(expect.arrayContaining(['errors.generic', 'errors.invalid-credentials']));
    expect(keysIn(`${SRC}islands/account/ChangePasswordDialog.tsx`)).toEqual(expect.arrayContaining(['passwordRules.server.']));
    expect(keysOfIsland('ResetForm').map((k) => k.key)).toEqual(expect.arrayContaining(['passwordForm.requirement.', 'redirection.chooseApp']));
  });
});
