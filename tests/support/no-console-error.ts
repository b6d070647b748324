// A test fails on an unexpected console.error (DESIGN.md section 9): the app logs errors only
// for genuine server faults, which no test should cause silently.
import { afterEach, beforeEach, vi } from 'vitest';

let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (errors.length) throw new Error(`unexpected console.error: ${errors.map((a) => a.map(String).join(' ')).join('\n')}`);
});
