// Lock-out previews (issue 26, decision 0043): before an admin saves a change that can keep
// people out, who it affects. Each preview applies the rule that enforces the change, the same
// function the sign-in calls (mustSetUpTwofa, isAllowed, traitsMeetPolicy), to the tenant's
// active members; nothing here restates a rule. The saves call `assertConfirmed`, so an API or
// no-JS client cannot skip the preview silently: a change that affects someone is saved only
// with the count the admin confirmed, and only while that count is still the count.
import { sql } from 'drizzle-orm';
import type { Deps } from '../../deps';
import type { Tenant } from '../../db/schema';
import {
  PREVIEW_PEOPLE,
  type LockoutChange,
  type LockoutPerson,
  type LockoutPreview,
} from '../../shared/tenant-settings/schemas';
import { traitsMeetPolicy, unpackTraits } from '../../shared/account/password-policy';
import { AppError } from '../errors';
import { isAllowed, type AllowEntry } from '../security/ip-match';
import { enforcement, mustSetUpTwofa } from '../twofa/login';
import { tenantPolicy } from '../account/password-compliance';
import type { TenantScope } from '../tenants/scope';
import { assertSubscribed } from './settings';

/** The window of sign-ins the allowlist preview reads (issue 26). */
export const RECENT_SIGN_IN_DAYS = 30;
/** Sign-ins that end in a session on the tenant's host (audit actions of completeSignIn). */
const SIGN_IN_ACTIONS = ['login.succeeded', 'login.sso', 'login.handoff', 'login.passkey'];

interface MemberRow {
  user_id: number;
  name: string;
  email: string;
  twofa_method: string | null;
  has_password: number;
  has_passkey: number;
  password_traits: number | null;
  is_sso_enabled: number;
  saml_name_id: string | null;
}

/**
 * The tenant's active members (not deactivated, not being deleted, invitation accepted) with
 * what the rules look at, by name (the previews list them in this order; SQLite sorts 50,000
 * rows faster than a JS collator). One statement; tenant-bound by `scope.id`.
 */
async function activeMembers(scope: TenantScope, withPasskeys: boolean): Promise<MemberRow[]> {
  return scope.db.all<MemberRow>(sql`
    SELECT u.id AS user_id, coalesce(tu.display_name, u.name) AS name, u.email AS email, u.twofa_method AS twofa_method,
      u.password_hash IS NOT NULL AS has_password,
      ${withPasskeys ? sql`EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = u.id)` : sql`0`} AS has_passkey,
      u.password_traits AS password_traits, tu.is_sso_enabled AS is_sso_enabled, tu.saml_name_id AS saml_name_id
    FROM tenant_users tu CROSS JOIN users u ON u.id = tu.user_id
    WHERE tu.tenant_id = ${scope.id} AND tu.deactivated_at IS NULL AND tu.operation_status IS NULL AND tu.invitation_pending = 0
    ORDER BY name, u.id`);
}

/** A member this tenant's host sends to its IdP: no portal password or 2FA applies (checkEntry). */
const signsInBySso = (t: Tenant, m: MemberRow) => Boolean(t.isSsoEnabled && m.is_sso_enabled);

function finish(kind: LockoutChange['kind'], members: number, affected: LockoutPerson[], extra: Partial<LockoutPreview>, changes: boolean): LockoutPreview {
  return {
    kind,
    affected: affected.length,
    members,
    unknown: 0,
    ...extra,
    confirmationRequired: changes && affected.length > 0,
    people: affected.slice(0, PREVIEW_PEOPLE),
  };
}

const person = (m: MemberRow, reason: LockoutPerson['reason']): LockoutPerson => ({ userId: Number(m.user_id), name: m.name, email: m.email, reason });

async function previewTwofa(scope: TenantScope, next: { isTwofaEnforced: boolean; isTwofaSkipAllowed: boolean }): Promise<LockoutPreview> {
  const t = scope.tenant;
  assertSubscribed(t.isFeatureTwofaEnforcementSubscribed);
  const after = enforcement({ ...t, ...next }, []);
  const before = enforcement(t, []);
  const rows = await activeMembers(scope, true);
  const affected: LockoutPerson[] = [];
  let atSignIn = 0;
  for (const m of rows) {
    if (signsInBySso(t, m)) continue;
    // Skipping is not a way out once the change is saved without "allow skip".
    if (!mustSetUpTwofa({ twofaMethod: m.twofa_method, passkey: Boolean(m.has_passkey) }, after, false)) continue;
    if (m.has_password) atSignIn++;
    affected.push(person(m, m.has_password ? 'noSecondFactor' : 'notRegistered'));
  }
  // A save that makes the rule stricter needs the confirmation; keeping it or loosening it does not.
  const stricter = after.enforced && !after.skipAllowed && !(before.enforced && !before.skipAllowed);
  return finish('twofa', rows.length, affected, { enrolAtSignIn: atSignIn, enrolAtRegistration: affected.length - atSignIn }, stricter);
}

async function previewAllowlist(deps: Deps, scope: TenantScope, change: { kind: 'ip-enable' } | { kind: 'ip-delete'; id: number }, ownAddress: string | null): Promise<LockoutPreview> {
  const t = scope.tenant;
  assertSubscribed(t.isFeatureIpRestrictionSubscribed);
  const since = deps.clock.now() - RECENT_SIGN_IN_DAYS * 86_400_000;
  // The tenant's sign-ins of the window, from its covering index (audit entries keep each sign-in's client address).
  const recent = sql`FROM activity_logs WHERE tenant_id = ${scope.id} AND action IN (${sql.join(SIGN_IN_ACTIONS.map((a) => sql`${a}`), sql`, `)})
    AND created_at >= ${since} AND actor_user_id IS NOT NULL`;
  const [entries, rows, addresses] = await Promise.all([
    scope.db.all<AllowEntry & { id: number }>(sql`SELECT id, ip_address AS ipAddress, prefix_length AS prefixLength FROM whitelisted_ips WHERE tenant_id = ${scope.id}`),
    activeMembers(scope, false),
    scope.db.all<{ ip: string | null }>(sql`SELECT DISTINCT ip_address AS ip ${recent}`),
  ]);
  if (change.kind === 'ip-delete' && !entries.some((e) => Number(e.id) === change.id)) throw new AppError('not-found');
  const list = change.kind === 'ip-delete' ? entries.filter((e) => Number(e.id) !== change.id) : entries;
  // The matcher the sign-in uses, once per distinct address (thousands, where sign-ins are hundreds of thousands);
  // then, per member, whether any sign-in came from an address it lets in.
  const inside = addresses.filter((a) => isAllowed(a.ip, list)).map((a) => a.ip);
  const perMember = await scope.db.all<{ user_id: number; ok: number }>(sql`
    SELECT actor_user_id AS user_id, max(ip_address IN (SELECT value FROM json_each(${JSON.stringify(inside)}))) AS ok ${recent}
    GROUP BY actor_user_id`);
  const byUser = new Map(perMember.map((r) => [Number(r.user_id), Boolean(r.ok)]));
  const allowed = (ip: string | null) => isAllowed(ip, list);
  const affected: LockoutPerson[] = [];
  let unknown = 0;
  for (const m of rows) {
    const any = byUser.get(Number(m.user_id));
    if (any === undefined) unknown++;
    else if (!any) affected.push(person(m, 'outsideAllowlist'));
  }
  // Deleting an entry changes nothing while the restriction is off; enabling it twice neither.
  // A change that would leave the admin's own address outside is refused by its own rule
  // (your-current-ip-address-is-not-whitelisted, cannot-delete): nothing to confirm.
  const changes = (change.kind === 'ip-enable' ? !t.isIpRestrictionEnabled : t.isIpRestrictionEnabled) && allowed(ownAddress);
  const preview = finish(change.kind, rows.length, affected, { ownAddress, ownAddressAllowed: allowed(ownAddress) }, changes);
  return { ...preview, unknown };
}

async function previewSsoForAll(scope: TenantScope): Promise<LockoutPreview> {
  const t = scope.tenant;
  const [rows, ssoUsers] = await Promise.all([
    activeMembers(scope, false),
    scope.db.all<{ user_id: number }>(sql`SELECT DISTINCT actor_user_id AS user_id FROM activity_logs
      WHERE tenant_id = ${scope.id} AND action = 'login.sso' AND actor_user_id IS NOT NULL`),
  ]);
  const signedIn = new Set(ssoUsers.map((r) => Number(r.user_id)));
  // Every active member is sent to the IdP once the switch is on; the IdP has vouched for those
  // who have signed in through it on this tenant. A name id alone does not prove the IdP knows them.
  const affected = rows.filter((m) => !signedIn.has(Number(m.user_id))).map((m) => ({ ...person(m, 'neverSso'), hasNameId: m.saml_name_id !== null }));
  // Without SSO on, or over the SSO limit, the save is refused by its own rule (setSsoForAll).
  const possible = Boolean(t.isSsoEnabled) && t.featureSsoUsersLimit > 0 && rows.length <= t.featureSsoUsersLimit;
  const changes = rows.some((m) => !m.is_sso_enabled);
  return finish('sso-for-all', rows.length, affected, {}, possible && changes);
}

async function previewPasswordPolicy(scope: TenantScope, policy: { minimumPasswordLength: number; isMixedCaseRequired: boolean; isNumberRequired: boolean; isSpecialCharacterRequired: boolean }): Promise<LockoutPreview> {
  const t = scope.tenant;
  // The policy a sign-in on this host applies (applicablePolicy -> tenantPolicy), after the change.
  const after = tenantPolicy({ ...t, ...policy });
  const before = tenantPolicy(t);
  const rows = await activeMembers(scope, false);
  const affected: LockoutPerson[] = [];
  let unknown = 0;
  let members = 0;
  for (const m of rows) {
    if (!m.has_password || signsInBySso(t, m)) continue;
    members++;
    if (m.password_traits === null) unknown++;
    else if (!traitsMeetPolicy(unpackTraits(Number(m.password_traits)), after)) affected.push(person(m, 'passwordTooWeak'));
  }
  const stricter =
    after.minimum_password_length > before.minimum_password_length ||
    (after.is_mixed_case_required && !before.is_mixed_case_required) ||
    (after.is_number_required && !before.is_number_required) ||
    (after.is_special_character_required && !before.is_special_character_required);
  const preview = finish('password-policy', members, affected, {}, stricter);
  return { ...preview, unknown };
}

/** The preview of one change on this tenant, as it is now. */
export async function previewLockout(deps: Deps, scope: TenantScope, change: LockoutChange, ownAddress: string | null): Promise<LockoutPreview> {
  switch (change.kind) {
    case 'twofa':
      return previewTwofa(scope, change);
    case 'ip-enable':
    case 'ip-delete':
      return previewAllowlist(deps, scope, change, ownAddress);
    case 'sso-for-all':
      return previewSsoForAll(scope);
    case 'password-policy':
      return previewPasswordPolicy(scope, change.policy);
  }
}

/**
 * Refuses a save that affects people unless it carries the count the admin confirmed, and that
 * count is still the count now (409 `lockout-confirmation-required` with the current preview's
 * count): a member who lost their factor meanwhile is not locked out unseen.
 */
export async function assertConfirmed(deps: Deps, scope: TenantScope, change: LockoutChange, ownAddress: string | null, confirmAffected: number | undefined): Promise<LockoutPreview> {
  const preview = await previewLockout(deps, scope, change, ownAddress);
  if (preview.confirmationRequired && confirmAffected !== preview.affected) {
    throw new AppError('lockout-confirmation-required', { affected: preview.affected });
  }
  return preview;
}
