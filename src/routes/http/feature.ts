// A feature's HTTP surface: its JSON calls (mounted under <base>/api) and its screens (under
// <base>, behind the page guard). Each feature folder of src/routes exports one (index.ts);
// src/app.ts mounts them in order.
import { Hono } from 'hono';
import type { AppEnv } from './env';

export interface Feature {
  api: Hono<AppEnv>;
  pages: Hono<AppEnv>;
}

/** A feature made of the given sub-apps, each mounted at the root of its surface. */
export function feature(parts: { api?: Hono<AppEnv>[]; pages?: Hono<AppEnv>[] }): Feature {
  const api = new Hono<AppEnv>();
  const pages = new Hono<AppEnv>();
  for (const a of parts.api ?? []) api.route('/', a);
  for (const p of parts.pages ?? []) pages.route('/', p);
  return { api, pages };
}
