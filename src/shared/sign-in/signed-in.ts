// What the islands do with a signed-in answer (login, reset, registration): the redirection
// input from the user's tenants, and whether the change-password dialog is forced first
// (spec 01 section 4 "After the user is stored").
import { MIN_ACCEPTED_SCORE, type PasswordPolicy } from '../account/password-policy';
import type { AppKey, RedirectionInput } from './redirection';

export interface SignedInUser {
  email: string;
  is_tenant_manager: boolean;
  tenants: { id: number; name: string; subdomain: string | null; initial_subdomain: string; apps: AppKey[]; is_admin?: boolean }[];
}

export interface PasswordComplianceAnswer {
  meets_current_policy: boolean;
  score: number;
  policy: PasswordPolicy;
}

export interface RedirectionContext {
  hostTenantId: number | null;
  continuePath: string | null;
  basePath: string;
  appUrls: Record<AppKey, string>;
}

export function redirectionFor(user: SignedInUser, ctx: RedirectionContext): RedirectionInput {
  return {
    tenants: user.tenants.map((x) => ({ id: x.id, name: x.name, hostLabel: x.subdomain ?? x.initial_subdomain, apps: x.apps, isAdmin: x.is_admin === true })),
    hostTenantId: ctx.hostTenantId,
    isTenantManager: user.is_tenant_manager,
    continuePath: ctx.continuePath,
    basePath: ctx.basePath,
    appUrls: ctx.appUrls,
  };
}

/**
 * 1. the password does not meet the current policy: forced as non-compliant;
 * 2. else no password was checked, or its score is below 2: forced as weak-password-required;
 * 3. else nothing (the redirection step comes next).
 */
export function forcedReason(compliance: PasswordComplianceAnswer | null | undefined): 'non-compliant' | 'weak' | null {
  if (compliance && !compliance.meets_current_policy) return 'non-compliant';
  if (!compliance || compliance.score < MIN_ACCEPTED_SCORE) return 'weak';
  return null;
}

/**
 * Where the browser goes when a way in answers a pending step instead of a session (the server
 * decides in one place what is still owed); null when the answer is no such step.
 */
export function pendingStepUrl(message: string | undefined, basePath: string, query = ''): string | null {
  if (message === 'enter-otp') return `${basePath}/otp${query}`;
  if (message === 'enable-twofa') return `${basePath}/setup-twofa-at-login${query}`;
  if (message === 'enable-passkey') return `${basePath}/setup-passkey-at-login${query}`;
  return null;
}
