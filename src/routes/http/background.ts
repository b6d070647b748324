// Work that outlives the answer: on Workers the isolate is kept alive for it by waitUntil; on
// Node and Deno the promise simply runs on (the process outlives the answer). Durable work has a
// row the sweep resumes; a failure is logged with what it was and the request it came from.
import type { Context } from 'hono';

export function inBackground(c: Context, work: Promise<unknown>, what = 'background work'): void {
  const guarded = work.catch((e) =>
    console.error(JSON.stringify({ level: 'error', event: 'background_failed', what, requestId: (c.get as (k: string) => unknown)('requestId'), error: String(e) })),
  );
  try {
    c.executionCtx.waitUntil(guarded);
  } catch {
    /* no execution context (Node, Deno, tests): the promise runs by itself */
  }
}
