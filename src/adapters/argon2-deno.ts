// Deno: argon2id from @node-rs/argon2 where Node-API modules load (the Deno CLI with --allow-ffi:
// the hash runs on Deno's thread pool, off the event loop), the WebAssembly build otherwise (Deno
// Deploy has no Node-API). Both make and verify the same PHC strings as every other runtime.
import type { Argon2idFn } from '../domain/security/password-hashing';
import { loadArgon2Node } from './argon2-node';

export async function loadArgon2Deno(): Promise<Argon2idFn> {
  try {
    const { hashRaw } = await import('@node-rs/argon2');
    return async (p) =>
      new Uint8Array(
        await hashRaw(p.password, {
          salt: p.salt,
          memoryCost: p.memorySize,
          timeCost: p.passes,
          parallelism: p.parallelism,
          outputLen: p.tagLength,
          algorithm: 2, // Algorithm.Argon2id (a const enum isolated modules cannot read)
        }),
      );
  } catch {
    return loadArgon2Node();
  }
}
