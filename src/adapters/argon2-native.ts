// Node: argon2id from @node-rs/argon2 (a prebuilt native module shipped in an npm package). It
// computes on libuv's thread pool, so a login no longer blocks the event loop for a whole hash as
// the WebAssembly build does; the raw output is the same, so PHC strings verify on either runtime
// (tests/unit/password-hashing.test.ts).
import { hashRaw, type Algorithm } from '@node-rs/argon2';
import type { Argon2idFn } from '../domain/auth/passwords';

export async function loadArgon2Native(): Promise<Argon2idFn> {
  return async (p) =>
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
    );
}
