// A person's passkeys as rows (decision 0039): the list the account screen shows, renaming,
// removing, and the few reads other features need (does this person have one; how many each
// member of a list has). Every write is audited; the rule that keeps a person a way in is decided
// inside the statement that removes (decision 0035 section 3).
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { createHmac } from 'node:crypto';
import { prepared, read, type Db, type Placeholders } from '../../db/client';
import type { Deps } from '../../deps';
import { passkeys, tenants, tenantUsers, users, type User } from '../../db/schema';
import { AppError, text, ValidationError } from '../errors';
import { auditInsert } from '../audit/log';
import { derivedKey } from '../security/keys';
import type { PasskeyView } from '../../shared/passkeys/types';
import { PASSKEY_NAME_MAX, providerName } from './names';

export type { PasskeyView };

/** Passkeys one account may hold (each is a row and a way in; real people have a handful). */
export const MAX_PASSKEYS = 20;

export type PasskeyRow = typeof passkeys.$inferSelect;

export function passkeyView(p: PasskeyRow): PasskeyView {
  return {
    id: p.id,
    name: p.name,
    provider: providerName(p.aaguid),
    createdAt: p.createdAt,
    lastUsedAt: p.lastUsedAt,
    storage: p.backedUp ? 'synced' : p.backupEligible ? 'syncable' : 'device',
  };
}

// Built once (prepared): drizzle building the select was 9% of the passkeys screen's CPU.
const passkeyRows = prepared((db, p: Placeholders<{ userId: number }>) => db.select().from(passkeys).where(eq(passkeys.userId, p.userId)).orderBy(asc(passkeys.createdAt), asc(passkeys.id)));

export async function listPasskeys(db: Db, userId: number): Promise<PasskeyRow[]> {
  return passkeyRows(db, { userId });
}

/** How many passkeys the person has (my-account's entry), as a read of a screen's one batch. */
const passkeyCount = prepared((db, p: Placeholders<{ userId: number }>) => db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, p.userId)));

export function passkeyCountRead(db: Db, userId: number) {
  return read({ n: passkeyCount(db, { userId }) }, ({ n }): number => n[0]?.n ?? 0);
}

export async function hasPasskey(db: Db, userId: number): Promise<boolean> {
  return Boolean(await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1).get());
}

/** How many passkeys each of these accounts has (absent: none). */
export async function passkeyCounts(db: Db, userIds: number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.select({ userId: passkeys.userId, n: count() }).from(passkeys).where(inArray(passkeys.userId, userIds)).groupBy(passkeys.userId);
  return new Map(rows.map((r) => [r.userId, r.n]));
}

/**
 * The WebAuthn user handle of an account: 16 bytes of an HMAC of its id under a key derived for
 * this (stable, says nothing about the person, and the same on every authenticator, so a second
 * passkey made on one authenticator replaces the first instead of piling up).
 */
export function userHandle(dataKey: string, userId: number): Uint8Array<ArrayBuffer> {
  const mac = createHmac('sha256', derivedKey(dataKey, 'passkey-user-handle')).update(`user:${userId}`).digest();
  const handle = new Uint8Array(new ArrayBuffer(16));
  handle.set(mac.subarray(0, 16));
  return handle;
}

/** A name as the person typed it: trimmed, 1 to 64 characters, no control characters. */
export function cleanName(name: string): string | null {
  const n = name.replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
  return n.length >= 1 && n.length <= PASSKEY_NAME_MAX ? n : null;
}

export interface Actor {
  user: User;
  tenantId: number | null;
  ip: string | null;
  userAgent: string | null;
}

/** PATCH passkeys/{id} {name}: the person's own label for one of their passkeys. */
export async function renamePasskey(deps: Deps, actor: Actor, id: string, name: string): Promise<PasskeyView> {
  const clean = cleanName(name);
  if (!clean) throw new ValidationError({ name: [text('passkeys.errors.name')] });
  const row = await deps.db.update(passkeys).set({ name: clean }).where(and(eq(passkeys.id, id), eq(passkeys.userId, actor.user.id))).returning().get();
  if (!row) throw new AppError('not-found');
  await auditInsert(
    deps.db,
    { tenantId: actor.tenantId, actorUserId: actor.user.id, action: 'passkey.renamed', targetType: 'passkey', targetId: id, ipAddress: actor.ip, userAgent: actor.userAgent, details: { name: clean } },
    deps.clock.now(),
  );
  return passkeyView(row);
}

/**
 * The condition, inside the statement that removes, that the account keeps a way in: a password,
 * another passkey than those removed, or an active membership that signs in with its tenant's SSO.
 */
export function keepsAWayIn(userId: number, removing: 'one' | 'all', id: string | null) {
  const others =
    removing === 'one'
      ? sql`exists (select 1 from ${passkeys} p2 where p2.user_id = ${userId} and p2.id <> ${id})`
      : sql`0`;
  return sql`(
    exists (select 1 from ${users} u where u.id = ${userId} and u.password_hash is not null)
    or ${others}
    or exists (select 1 from ${tenantUsers} tu join ${tenants} t on t.id = tu.tenant_id
               where tu.user_id = ${userId} and tu.deactivated_at is null and tu.invitation_pending = 0
                 and tu.is_sso_enabled = 1 and t.is_sso_enabled = 1)
  )`;
}

/**
 * DELETE passkeys/{id}: removes one of the person's passkeys (the password was checked by the
 * caller). Refused with `cannot-remove-last-passkey` when it is the account's last way in.
 */
export async function removePasskey(deps: Deps, actor: Actor, id: string): Promise<void> {
  const now = deps.clock.now();
  const userId = actor.user.id;
  const removed = await deps.db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId), keepsAWayIn(userId, 'one', id)))
    .returning({ id: passkeys.id, name: passkeys.name });
  if (removed.length === 0) {
    const exists = await deps.db.select({ id: passkeys.id }).from(passkeys).where(and(eq(passkeys.id, id), eq(passkeys.userId, userId))).get();
    throw new AppError(exists ? 'cannot-remove-last-passkey' : 'not-found');
  }
  await auditInsert(
    deps.db,
    { tenantId: actor.tenantId, actorUserId: userId, action: 'passkey.removed', targetType: 'passkey', targetId: id, ipAddress: actor.ip, userAgent: actor.userAgent, details: { name: removed[0]!.name } },
    now,
  );
}
