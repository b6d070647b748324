// The islands' JSON client: same-origin, X-Requested-With on every call (DESIGN.md section 4).
// `data.message` is typed with the code words of src/shared/error-codes.ts: comparing it with a
// word the server never sends is a compile error.
import type { ApiMessage } from './error-codes';

export interface ApiResult<T = Record<string, unknown>> {
  ok: boolean;
  status: number;
  data: Omit<T, 'message'> & { message?: ApiMessage };
  headers: Headers;
}

export async function api<T = Record<string, unknown>>(
  basePath: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${basePath}/api/${path.replace(/^\//, '')}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data: unknown = {};
  try {
    data = await res.json();
  } catch {
    data = {};
  }
  return { ok: res.ok, status: res.status, data: data as ApiResult<T>['data'], headers: res.headers };
}
