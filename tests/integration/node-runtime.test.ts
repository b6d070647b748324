// Node's runtime port on a real HTTP server (@hono/node-server, as src/entry/node.ts serves): the
// request's headers come from the connection's own message (no WHATWG Headers object is built for
// a signed-in GET), the client address and https from the one trusted proxy header only, and a
// client-sent CF-Ray is never taken as the request's id (only Workers' platform sets one).
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../bench/http';
import { nodeRuntime } from '../../src/adapters/runtime-node';
import { readConfig } from '../../src/config';

const servers: ReturnType<typeof createAdaptorServer>[] = [];

async function serveWith(trustProxy: string): Promise<number> {
  const runtime = nodeRuntime(readConfig({ DEV_MODE: 'true', TRUST_PROXY: trustProxy }));
  const app = new Hono();
  app.get('/', (c) => {
    const req = c.req.raw;
    return c.json({
      cookie: runtime.header(req, c.env, 'cookie') ?? null,
      accept: runtime.header(req, c.env, 'accept-language') ?? null,
      missing: runtime.header(req, c.env, 'x-none') ?? null,
      ip: runtime.clientIp(req, c.env),
      https: runtime.isHttps(req, c.env),
      requestId: runtime.requestId(req),
    });
  });
  const server = createAdaptorServer({ fetch: app.fetch });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

const get = async (port: number, headers: Record<string, string>) => JSON.parse((await call(port, `127.0.0.1:${port}`, 'GET', '/', headers)).body.toString('utf8'));

let direct = 0;
let proxied = 0;
beforeAll(async () => {
  direct = await serveWith('none');
  proxied = await serveWith('x-forwarded-for');
});
afterAll(() => {
  for (const s of servers) s.close();
});

describe('Node runtime on a real server', () => {
  it('reads headers from the incoming message, case-insensitively as sent', async () => {
    const r = await get(direct, { Cookie: 'a=1; portal_session=x', 'Accept-Language': 'en-US,en;q=0.9' });
    expect(r).toMatchObject({ cookie: 'a=1; portal_session=x', accept: 'en-US,en;q=0.9', missing: null });
  });

  it('without a trusted proxy: the socket address, http, and client-sent proxy headers ignored', async () => {
    const r = await get(direct, { 'X-Forwarded-For': '198.51.100.7', 'X-Forwarded-Proto': 'https' });
    expect(r.ip).toBe('127.0.0.1');
    expect(r.https).toBe(false);
  });

  it("behind the configured proxy: the last hop of its header, and https from X-Forwarded-Proto", async () => {
    const r = await get(proxied, { 'X-Forwarded-For': '203.0.113.1, 198.51.100.7', 'X-Forwarded-Proto': 'https' });
    expect(r.ip).toBe('198.51.100.7');
    expect(r.https).toBe(true);
  });

  it('a client-sent CF-Ray is not the request id', async () => {
    expect((await get(direct, { 'CF-Ray': '8f00aa-NRT' })).requestId).toBeNull();
  });
});
