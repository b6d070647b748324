declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
declare module 'argon2id/lib/setup.js' {
  type Loader = (imports: WebAssembly.Imports) => Promise<{ instance: WebAssembly.Instance }>;
  export default function setupWasm(simd: Loader, noSimd: Loader): Promise<unknown>;
}
