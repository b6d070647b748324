// A user's memberships with their tenants and app access. Queries here are keyed by user id;
// tenant-scoped admin queries live with their capability and always filter by tenant_id.
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { distinctColumns, prepared, read, readOne, type Db, type Placeholders } from '../../db/client';
import { tenantApps, tenants, tenantUsers, type AppKey, type Tenant, type TenantUser } from '../../db/schema';

export interface Membership {
  tenant: Tenant;
  member: TenantUser;
  /** Apps this member may use: granted to the member and contracted by the tenant. */
  apps: AppKey[];
}

export function memberApps(member: Pick<TenantUser, 'meishiAccessGrantedAt' | 'schedulerAccessGrantedAt' | 'meishiOperatorAccessGrantedAt'>, contracted: AppKey[]): AppKey[] {
  const granted: AppKey[] = [];
  if (member.meishiAccessGrantedAt !== null) granted.push('meishi');
  if (member.schedulerAccessGrantedAt !== null) granted.push('scheduler');
  if (member.meishiOperatorAccessGrantedAt !== null) granted.push('meishi_operator');
  return granted.filter((a) => contracted.includes(a));
}

/**
 * All memberships of a user, active and deactivated, with apps (one statement: each tenant's
 * contracted apps come as a JSON array beside its row). An invitation the person has not accepted
 * is not a membership: every way in, hand-off, the org chooser and the user payload read
 * memberships from here, so none of them can count one.
 */
export async function listMemberships(db: Db, userId: number): Promise<Membership[]> {
  return readOne(db, membershipsRead(db, userId));
}

/**
 * The same as a batchable read, for a user given by id or by a subquery (the password login reads
 * them with the account in one batch, before it knows the id). Joined columns are aliased: D1
 * answers a batch's rows by column name (distinctColumns).
 */
export function membershipsRead(db: Db, userId: number | SQL) {
  return read(
    {
      rows: db
        .select({
          tenant: distinctColumns(tenants, 't'),
          member: distinctColumns(tenantUsers, 'm'),
          contracted: sql<string>`(select json_group_array(${tenantApps.app}) from ${tenantApps} where ${tenantApps.tenantId} = ${tenants.id})`.as('contracted'),
        })
        .from(tenantUsers)
        .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
        .where(and(eq(tenantUsers.userId, userId), isNull(tenantUsers.operationStatus), eq(tenantUsers.invitationPending, false)))
        .orderBy(tenants.name),
    },
    ({ rows }): Membership[] => rows.map(({ tenant, member, contracted }) => ({ tenant, member, apps: memberApps(member, JSON.parse(contracted) as AppKey[]) })),
  );
}

export function activeOnly(ms: Membership[]): Membership[] {
  return ms.filter((m) => m.member.deactivatedAt === null);
}

/** Invitations to tenants this person has not accepted yet (tenant id and name), as a batchable read. */
const invitationRows = prepared((db, p: Placeholders<{ userId: number }>) =>
  db
    .select({ tenantId: tenants.id, tenantName: tenants.name, invitedAt: tenantUsers.createdAt })
    .from(tenantUsers)
    .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
    .where(and(eq(tenantUsers.userId, p.userId), isNull(tenantUsers.operationStatus), eq(tenantUsers.invitationPending, true)))
    .orderBy(tenants.name),
);

export function invitationsRead(db: Db, userId: number) {
  return read(
    { rows: invitationRows(db, { userId }) },
    ({ rows }): { tenantId: number; tenantName: string; invitedAt: number }[] => rows,
  );
}

export function listInvitations(db: Db, userId: number) {
  return readOne(db, invitationsRead(db, userId));
}
