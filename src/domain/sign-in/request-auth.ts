// Who is asking, in one statement: the host's tenant (as stored now), the session of the cookie
// with its user and membership, the user's memberships with their apps, and the tenant's IP
// allowlist when it is enforced. One database round trip for every signed-in request on D1 and
// libSQL alike; the SQL text never changes, so drivers with a statement cache prepare it once.
// The rows come back as the same objects drizzle's selects give (Tenant, Session, User,
// TenantUser), mapped through the schema's own column definitions.
import { Column, getTableColumns, type Table } from 'drizzle-orm';
import { firstRow, type Db } from '../../db/client';
import { sessions, tenants, tenantUsers, users, type Session, type Tenant, type TenantUser, type User } from '../../db/schema';
import type { AllowEntry } from '../security/ip-match';
import { sha256Hex } from '../security/tokens';
import { memberApps, type Membership } from '../tenants/memberships';
import { asRead, type FreshTenant } from '../tenants/hosts';
import type { AppKey } from '../../db/schema';

// Each column with its conversion from the driver's value, or null where there is none (text and
// plain integers): most of the row's 79 values are copied as they come.
type Columns = [key: string, fromDriver: ((v: unknown) => unknown) | null][];

const columnsOf = (t: Table): Columns =>
  Object.entries(getTableColumns(t)).map(([key, c]) => [
    key,
    c.mapFromDriverValue === Column.prototype.mapFromDriverValue ? null : (v: unknown) => c.mapFromDriverValue(v),
  ]);
const T = columnsOf(tenants);
const S = columnsOf(sessions);
const U = columnsOf(users);
const M = columnsOf(tenantUsers);
const list = (t: Table, alias: string) => Object.values(getTableColumns(t)).map((c) => `${alias}."${c.name}"`).join(', ');

function mapRow<R>(cols: Columns, values: readonly unknown[], offset: number): R {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < cols.length; i++) {
    const [key, fromDriver] = cols[i]!;
    const v = values[offset + i];
    row[key] = v === null || v === undefined ? null : fromDriver === null ? v : fromDriver(v);
  }
  return row as R;
}

// The memberships are one JSON array of [tenant columns..., membership columns..., [apps]],
// sorted here by tenant name as listMemberships orders them (an ORDER BY would need a sub-select,
// whose JSON values SQLite re-parses). A sub-select's JSON loses its JSON type, hence json(...).
// The membership of this host's tenant is already in the row (t, m): the array leaves it out and
// only its tenant's apps are added, so most people (one tenant) cost no JSON at all.
const SELECT = `SELECT ${list(tenants, 't')}, ${list(sessions, 's')}, ${list(users, 'u')}, ${list(tenantUsers, 'm')},
  CASE WHEN u."id" IS NULL THEN NULL ELSE (
    SELECT json_group_array(json_array(${list(tenants, 'mt')}, ${list(tenantUsers, 'mm')},
        json((SELECT json_group_array(a."app") FROM "tenant_apps" a WHERE a."tenant_id" = mt."id"))))
    FROM "tenant_users" mm JOIN "tenants" mt ON mt."id" = mm."tenant_id"
    WHERE mm."user_id" = u."id" AND mm."operation_status" IS NULL AND mm."invitation_pending" = 0 AND mm."id" IS NOT m."id") END,
  CASE WHEN t."is_ip_restriction_enabled" = 1 AND u."id" IS NOT NULL THEN (
    SELECT json_group_array(json_array(w."ip_address", w."prefix_length")) FROM "whitelisted_ips" w WHERE w."tenant_id" = t."id") END,
  CASE WHEN m."id" IS NOT NULL AND m."operation_status" IS NULL THEN (
    SELECT coalesce(group_concat(a."app"), '') FROM "tenant_apps" a WHERE a."tenant_id" = t."id") END
FROM (SELECT `;

const FROM = `? AS "label", ? AS "token_hash", ? AS "now") q
LEFT JOIN "tenant_hosts" h ON h."label" = q."label"
LEFT JOIN "tenants" t ON t."id" = h."tenant_id"
LEFT JOIN "sessions" s ON s."token_hash" = q."token_hash" AND s."expires_at" > q."now" AND s."tenant_id" IS t."id"
LEFT JOIN "users" u ON u."id" = s."user_id"
LEFT JOIN "tenant_users" m ON m."user_id" = s."user_id" AND m."tenant_id" = s."tenant_id" AND m."invitation_pending" = 0`;

const STATEMENT = SELECT + FROM;

export interface RequestAuth {
  /** The tenant of the host label as stored now; null when the label is no tenant's. */
  tenant: FreshTenant | null;
  /** The cookie's live session on this host, with its user, membership and memberships. */
  found: {
    session: Session;
    user: User;
    member: TenantUser | null;
    memberships: Membership[];
    /** The host tenant's allowlist when it is enforced; null otherwise. It binds everyone signed
     *  in on the host, members and tenant managers alike (decisions 0026, 0035). */
    allowlist: AllowEntry[] | null;
  } | null;
}

/** A cookie token has this shape; anything else is no session (and costs no hashing). */
export const isTokenShape = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/**
 * `label` null is the main domain. The session must belong to this host's tenant (cookies are
 * host-only; the row must agree) and be unexpired; the caller applies the absolute lifetime.
 */
export async function readRequestAuth(db: Db, label: string | null, token: string | null, now: number): Promise<RequestAuth> {
  const hash = token && isTokenShape(token) ? sha256Hex(token) : null;
  const row = await firstRow(db, STATEMENT, [label, hash, now]);
  if (!row) return { tenant: null, found: null };
  let at = 0;
  const tenant = row[at] === null ? null : asRead(mapRow<Tenant>(T, row, at));
  at += T.length;
  if (row[at] === null) return { tenant, found: null };
  const session = mapRow<Session>(S, row, at);
  at += S.length;
  const user = mapRow<User>(U, row, at);
  at += U.length;
  const member = row[at] === null ? null : mapRow<TenantUser>(M, row, at);
  at += M.length;
  const memberships = (JSON.parse(String(row[at] ?? '[]')) as unknown[][]).map((r) => {
    const mt = mapRow<Tenant>(T, r, 0);
    const mm = mapRow<TenantUser>(M, r, T.length);
    return { tenant: mt, member: mm, apps: memberApps(mm, r[T.length + M.length] as AppKey[]) };
  });
  const hereApps = row[at + 2];
  if (tenant && member && typeof hereApps === 'string') {
    memberships.push({ tenant, member, apps: memberApps(member, (hereApps === '' ? [] : hereApps.split(',')) as AppKey[]) });
  }
  // SQLite's ORDER BY compares names as bytes (UTF-8); code units sort the same below U+10000.
  if (memberships.length > 1) memberships.sort((a, b) => (a.tenant.name < b.tenant.name ? -1 : a.tenant.name > b.tenant.name ? 1 : 0));
  const allow = row[at + 1];
  const allowlist = allow === null || allow === undefined ? null : (JSON.parse(String(allow)) as [string, number][]).map(([ipAddress, prefixLength]) => ({ ipAddress, prefixLength }));
  return { tenant, found: { session, user, member, memberships, allowlist } };
}
