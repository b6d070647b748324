import { drizzle } from 'drizzle-orm/d1';
import * as schema from '../db/schema';
import { linkScope, registerFirstRow, type Db } from '../db/client';
import type { DbScope, DbScopes } from '../deps';

type D1 = Parameters<typeof drizzle>[0];

export function openD1(binding: D1): Db {
  // drizzle's D1 and libSQL databases expose the same async query builder and batch();
  // the rest of the code is written against that shared surface only.
  const db = drizzle(binding, { schema }) as unknown as Db;
  const b = binding as unknown as SessionLike;
  return registerFirstRow(db, (sql, args) => b.prepare(sql).bind(...args).raw().then((rows) => (rows as unknown[][])[0]));
}

interface Stmt {
  bind(...values: unknown[]): Stmt;
  first(...a: unknown[]): Promise<unknown>;
  all(): Promise<unknown>;
  raw(...a: unknown[]): Promise<unknown>;
  run(): Promise<unknown>;
}
interface SessionLike {
  prepare(sql: string): Stmt;
  batch(stmts: Stmt[]): Promise<unknown>;
  getBookmark?(): string | null;
}
type WithSessions = D1 & { withSession?(constraintOrBookmark?: string): SessionLike };

/** D1 bookmarks are groups of hex digits joined by dashes. */
const BOOKMARK = /^[0-9a-f]{1,40}(-[0-9a-f]{1,40}){0,8}$/i;

/**
 * One D1 session per request (the Sessions API): reads may be served by a read replica, and the
 * bookmark the browser brings back makes its own earlier writes visible to it. A request the
 * caller marks `primary` (a state change, or one that brings a session: decision 0035) starts at
 * the primary, so who is asking and the checks made before writing read the latest rows.
 * Each call that reaches D1 (first, all, raw, run, batch) is counted as a round trip.
 */
export function d1Scopes(binding: D1, root: Db): DbScopes {
  const b = binding as WithSessions;
  return {
    open(bookmark, primary): DbScope {
      // A bookmark is the browser's to send: one that is not D1's shape starts unconstrained.
      const from = primary ? 'first-primary' : bookmark && BOOKMARK.test(bookmark) ? bookmark : 'first-unconstrained';
      const session: SessionLike = b.withSession ? b.withSession(from) : (b as unknown as SessionLike);
      let trips = 0;
      const count = <T>(p: Promise<T>) => {
        trips++;
        return p;
      };
      const wrap = (s: Stmt): Stmt =>
        new Proxy(s, {
          get(target, prop, receiver) {
            const v = Reflect.get(target, prop, receiver) as unknown;
            if (typeof v !== 'function') return v;
            if (prop === 'bind') return (...args: unknown[]) => wrap(target.bind(...args));
            if (prop === 'first' || prop === 'all' || prop === 'raw' || prop === 'run') return (...args: unknown[]) => count((v as (...a: unknown[]) => Promise<unknown>).apply(target, args));
            return (v as (...a: unknown[]) => unknown).bind(target);
          },
        });
      // The underlying statement objects go back to D1 in a batch, not the proxies.
      const unwrap = new WeakMap<Stmt, Stmt>();
      const counted = {
        prepare(sql: string) {
          const raw = session.prepare(sql);
          const proxied = wrap(raw);
          unwrap.set(proxied, raw);
          return proxied;
        },
        batch(stmts: Stmt[]) {
          return count(session.batch(stmts.map((s) => unwrap.get(s) ?? s)));
        },
      };
      const db = drizzle(counted as unknown as D1, { schema }) as unknown as Db;
      registerFirstRow(db, (sql, args) => counted.prepare(sql).bind(...args).raw().then((rows) => (rows as unknown[][])[0]));
      linkScope(db, root);
      return {
        db,
        bookmark: () => session.getBookmark?.() ?? null,
        roundTrips: () => trips,
        start: from === 'first-primary' || from === 'first-unconstrained' ? from : 'bookmark',
      };
    },
  };
}
