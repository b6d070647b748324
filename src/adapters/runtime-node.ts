// Node: the peer address of @hono/node-server's incoming message (see runtime-server.ts).
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config';
import type { RuntimePort } from '../deps';
import { serverRuntime } from './runtime-server';

export function nodeRuntime(config: Config): RuntimePort {
  return serverRuntime(config, (env) => (env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress);
}
