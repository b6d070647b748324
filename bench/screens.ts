// The screens of the route table as the bench measures them (issue 23): which path each is opened
// at, whether signed in (as the Acme admin) or signed out, and the targets they are held to.
import { ROUTES } from '../src/shared/routes';

export interface Screen {
  name: string;
  path: string;
  signedIn: boolean;
  /** Share of `GET api/user`'s req/s (same run, one Node process, 16 connections) to reach. */
  target: number;
}

/** Parameters of the table's paths, filled with the demo data's values. */
const FILLED: Record<string, string> = {
  register: '/register/nobody%40acme.test',
  verify: '/verify/nobody%40acme.test',
};

/** Screens the issue holds to a lower share: the long lists. */
const LISTS = new Set(['admin-user-management', 'activity-logs']);

export function screens(base: string): Screen[] {
  return ROUTES.map((r) => ({
    name: r.name,
    path: `${base}${FILLED[r.name] ?? r.paths[0]!}`,
    signedIn: r.access !== 'public',
    target: r.name === 'login' ? 0.5 : LISTS.has(r.name) ? 0.1 : 0.2,
  }));
}

/** Members the demo tenant is brought to before the lists are loaded again: a full first page. */
export const FULL_PAGE_MEMBERS = 25;

/** The two lists again, once the tenant has a full page of members (the users figures are of 25 rows). */
export function fullLists(base: string): Screen[] {
  return screens(base)
    .filter((s) => LISTS.has(s.name))
    .map((s) => ({ ...s, name: `${s.name} (${FULL_PAGE_MEMBERS} members)` }));
}

/** Connections of the screens' load runs, as the issue measures them. */
export const SCREEN_CONNECTIONS = 16;
/** p99 every screen should stay under at that load, ms. */
export const SCREEN_P99_MS = 20;
