// The Node entry's heap setting (decision 0050) runs before anything else of the portal: a
// refactor that drops or reorders the import would bring back a mark-compact a second under load.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const imports = (file: string) => [...readFileSync(file, 'utf8').matchAll(/^import (?:[^'"]+ from )?'([^']+)';/gm)].map((m) => m[1]);

describe('the Node processes run without allocation-site pretenuring', () => {
  it('the entry imports node-heap right after production-mode, before any package', () => {
    expect(imports('src/entry/node.ts').slice(0, 2)).toEqual(['./production-mode', './node-heap']);
  });

  it('node-heap sets the flag, and the people bench runs the same module', () => {
    expect(readFileSync('src/entry/node-heap.ts', 'utf8')).toMatch(/setFlagsFromString\('--no-allocation-site-pretenuring'\)/);
    expect(imports('bench/people.ts')[0]).toBe('../src/entry/node-heap');
  });
});
