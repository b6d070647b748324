// Node: the peer address of @hono/node-server's incoming message (see runtime-server.ts).
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config';
import type { RuntimePort } from '../deps';
import { serverRuntime } from './runtime-server';

export function nodeRuntime(config: Config): RuntimePort {
  const incoming = (env: unknown) => (env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return serverRuntime(config, (env) => incoming(env)?.socket.remoteAddress, (env) => incoming(env)?.headers);
}
