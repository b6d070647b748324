// Health endpoints (issue 8): /healthz answers without touching anything (liveness); /readyz asks
// the database and answers 503 when it cannot (readiness: take the instance out of rotation).
import { describe, expect, it } from 'vitest';
import { createHarness } from '../support/harness';

describe('health', () => {
  it('/healthz and /readyz answer 200 on any host, uncached', async () => {
    const h = await createHarness();
    try {
      for (const host of ['localhost:8787', 'acme.localhost:8787', '10.0.0.5:8787']) {
        const live = await h.app.request(`http://${host}/healthz`);
        expect(live.status, host).toBe(200);
        expect(await live.json()).toMatchObject({ status: 'ok' });
        const ready = await h.app.request(`http://${host}/readyz`);
        expect(ready.status, host).toBe(200);
        expect(await ready.json()).toMatchObject({ status: 'ok', database: 'ok' });
        expect(ready.headers.get('cache-control')).toBe('no-store');
        // Also under the base path, for deployments that route only /accounts/* to the portal.
        expect((await h.app.request(`http://${host}/accounts/readyz`)).status, host).toBe(200);
        expect((await h.app.request(`http://${host}/accounts/healthz`)).status, host).toBe(200);
      }
    } finally {
      h.close();
    }
  });

  it('/readyz answers 503 when the database is gone, while /healthz still answers', async () => {
    const h = await createHarness();
    h.close();
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...a: unknown[]) => errors.push(a);
    try {
      const ready = await h.app.request('http://localhost:8787/readyz');
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'unavailable', database: 'unreachable' });
      expect((await h.app.request('http://localhost:8787/healthz')).status).toBe(200);
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
  });
});
