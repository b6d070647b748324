// Reference point for bench/run.ts: the smallest Hono app on @hono/node-server, so the portal's
// figures can be read against what this machine, Node and the HTTP stack do with no work at all.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono().get('/', (c) => c.text('ok'));
const port = Number(process.env.PORT ?? 8788);
serve({ fetch: app.fetch, port, hostname: process.env.HOST ?? '127.0.0.1' }, () => {
  console.log(`baseline ready on ${port}`);
});
