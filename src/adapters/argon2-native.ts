// Node: argon2id from @node-rs/argon2 (a prebuilt native module shipped in an npm package). It
// computes on libuv's thread pool, so a login no longer blocks the event loop for a whole hash as
// the WebAssembly build does; the raw output is the same, so PHC strings verify on either runtime
// (tests/unit/password-hashing.test.ts).
//
// At most `concurrency` hashes run at once (default: one core fewer than the machine has, at
// least one): hashes on every core would leave the event loop queued behind them, and every other
// request would wait (measured in bench/RESULTS.md). Further hashes wait their turn in order.
import { availableParallelism } from 'node:os';
import { hashRaw, type Algorithm } from '@node-rs/argon2';
import type { Argon2idFn } from '../domain/auth/passwords';

export function defaultHashConcurrency(): number {
  const fromEnv = Number(process.env.ARGON2_CONCURRENCY);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : Math.max(1, availableParallelism() - 1);
}

/** Runs at most `limit` of the given tasks at once; the others wait their turn in order. */
export function concurrencyGate(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

export async function loadArgon2Native(concurrency = defaultHashConcurrency()): Promise<Argon2idFn> {
  const gate = concurrencyGate(concurrency);
  return (p) =>
    gate(async () =>
      new Uint8Array(
        await hashRaw(Buffer.from(p.password), {
          salt: Buffer.from(p.salt),
          memoryCost: p.memorySize,
          timeCost: p.passes,
          parallelism: p.parallelism,
          outputLen: p.tagLength,
          // Algorithm.Argon2id: a const enum, which isolated modules cannot read by name.
          algorithm: 2 as Algorithm,
        }),
      ),
    );
}
