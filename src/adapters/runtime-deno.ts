// Deno: the peer address of Deno.serve's connection info (see runtime-server.ts). On Deno Deploy
// the platform's edge is the proxy: set TRUST_PROXY to the header it fills.
import type { Config } from '../config';
import type { RuntimePort } from '../deps';
import { serverRuntime } from './runtime-server';

/** The second argument of Deno.serve's handler, passed through as the app's env. */
export interface DenoConnInfo {
  remoteAddr?: { transport?: string; hostname?: string };
}

export function denoRuntime(config: Config): RuntimePort {
  return serverRuntime(config, (env) => (env as DenoConnInfo | undefined)?.remoteAddr?.hostname);
}
