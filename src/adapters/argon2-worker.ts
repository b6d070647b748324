// workerd forbids compiling WebAssembly from bytes at run time; wrangler turns these imports
// into precompiled WebAssembly.Module objects (the documented way).
import setupWasm from 'argon2id/lib/setup.js';
import simd from 'argon2id/dist/simd.wasm';
import noSimd from 'argon2id/dist/no-simd.wasm';
import type { Argon2idFn } from '../domain/security/password-hashing';

export async function loadArgon2Worker(): Promise<Argon2idFn> {
  const load = (module: WebAssembly.Module) => async (imports: WebAssembly.Imports) => ({
    module,
    instance: await WebAssembly.instantiate(module, imports),
  });
  return (await setupWasm(load(simd), load(noSimd))) as Argon2idFn;
}
