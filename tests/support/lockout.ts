// A save that may lock people out (decision 0043) carries the count the admin confirmed: for
// tests of what the save does, not of the confirmation, this sends the count the server names.
import type { TestClient } from './harness';

export async function confirmed(c: TestClient, method: 'POST' | 'PATCH' | 'DELETE', path: string, json?: unknown) {
  const first = await c.request(method, path, json === undefined ? {} : { json });
  if (first.status !== 409 || first.body?.message !== 'lockout-confirmation-required') return first;
  const n = first.body.affected as number;
  if (method === 'PATCH' && json !== undefined && !path.includes('enable-ip-restriction')) return c.request(method, path, { json: { ...(json as object), confirmAffected: n } });
  if (method === 'POST' && json !== undefined) return c.request(method, path, { json: { ...(json as object), confirmAffected: n } });
  return c.request(method, `${path}${path.includes('?') ? '&' : '?'}confirmAffected=${n}`, json === undefined ? {} : { json });
}
