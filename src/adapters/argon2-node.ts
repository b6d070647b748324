import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import setupWasm from 'argon2id/lib/setup.js';
import type { Argon2idFn } from '../domain/security/password-hashing';

const require = createRequire(import.meta.url);

/** Node: instantiate argon2id's WebAssembly from the package's .wasm files. */
export async function loadArgon2Node(): Promise<Argon2idFn> {
  const load = (file: string) => async (imports: WebAssembly.Imports) =>
    WebAssembly.instantiate(await readFile(require.resolve(`argon2id/dist/${file}`)), imports);
  return (await setupWasm(load('simd.wasm'), load('no-simd.wasm'))) as Argon2idFn;
}
