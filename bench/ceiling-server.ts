// A reference point for bench/run.ts, never a way to run the portal: the portal's own app and Node
// entry settings, except that the request's principal (host, session, user, memberships) is read
// once per cookie and then answered from memory. Its GET api/user shows what the call would do if
// the database check cost nothing, so the bench can tell how much of a figure the per-request check
// is and how much is HTTP, Hono, the middleware and the answer. The portal itself never caches who
// is asking (docs/SECURITY.md: a revoked session or membership ends access at the next request).
//
// WEB_CONCURRENCY processes as in src/entry/node.ts (node:cluster; the primary prepares the
// database). The database is the bench's own copy, migrated and seeded like the portal's.
import { serve } from '@hono/node-server';
import cluster from 'node:cluster';
import { openLibsql } from '../src/adapters/db-libsql';
import { createApp } from '../src/app';
import { firstRow, registerFirstRow } from '../src/db/client';
import { buildNodeDeps } from '../src/entry/node';

const processes = Number(process.env.WEB_CONCURRENCY ?? 1);

if (processes > 1 && cluster.isPrimary) {
  (await buildNodeDeps(process.env)).close();
  for (let i = 0; i < processes; i++) cluster.fork();
  process.once('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    process.exit(0);
  });
} else {
  const deps = await buildNodeDeps(process.env, { migrate: !cluster.isWorker });
  // A second handle does the one real read per cookie; the app's handle answers from the memo.
  const reader = openLibsql(process.env.LIBSQL_URL!).db;
  const memo = new Map<string, Promise<unknown[] | undefined>>();
  registerFirstRow(deps.db, (text, args) => {
    // Label and token hash; the time (the third argument) is left out on purpose.
    const key = `${args[0]}|${args[1]}`;
    let row = memo.get(key);
    if (!row) memo.set(key, (row = firstRow(reader, text, args)));
    return row;
  });
  const port = Number(process.env.PORT);
  serve({ fetch: createApp(deps).fetch, port, hostname: process.env.HOST ?? '127.0.0.1' }, () => {
    if (!cluster.isWorker) console.log(`ceiling ready on ${port}`);
  });
}
