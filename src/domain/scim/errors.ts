// SCIM's own error answers (RFC 7644 section 3.12): `{"schemas": [Error], "status": "<code as a
// string>", "scimType": ..., "detail": ...}`. The SCIM endpoint speaks to identity providers, not
// to the portal's islands, so it does not use the portal's envelope; the rules it shares with the
// admin screens (seats, last admin, uniqueness) still throw the catalogue's codes, and `fromAppError`
// says what each one is in SCIM's words. Decision 0040.
import { AppError } from '../errors';

export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 table 9, and the two of section 3.5.2 (PATCH). */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

export type ScimStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 501;

export class ScimError extends Error {
  constructor(
    readonly status: ScimStatus,
    readonly detail: string,
    readonly scimType?: ScimType,
    /** Seconds to wait (429). */
    readonly retryAfter?: number,
  ) {
    super(detail);
    this.name = 'ScimError';
  }

  body(): Record<string, unknown> {
    return { schemas: [ERROR_SCHEMA], status: String(this.status), ...(this.scimType ? { scimType: this.scimType } : {}), detail: this.detail };
  }
}

export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
export const invalidSyntax = (detail: string) => new ScimError(400, detail, 'invalidSyntax');
export const invalidFilter = (detail: string) => new ScimError(400, detail, 'invalidFilter');
export const notFound = (what: string) => new ScimError(404, `${what} not found`);

/**
 * A rule of the portal, refused, in SCIM's words. The detail starts with the portal's code word, so
 * an IdP's provisioning log names the same rule the admin screens do.
 */
export function fromAppError(e: AppError): ScimError {
  const app = typeof e.details.app === 'string' ? e.details.app : '';
  switch (e.code) {
    case 'not-found':
      return new ScimError(404, 'not-found: no such resource in this tenant');
    case 'user_already_exists':
      return new ScimError(409, 'user_already_exists: a member of this tenant already has this userName', 'uniqueness');
    case 'duplicate-email':
      return new ScimError(409, 'duplicate-email: another account already uses this address', 'uniqueness');
    case 'belongs-to-multiple-tenants':
      return new ScimError(400, 'belongs-to-multiple-tenants: this account is used in other organizations too; its address cannot be changed from one of them', 'mutability');
    case 'invitation-pending':
      return new ScimError(400, 'invitation-pending: the person has not accepted the invitation yet; only the name, externalId, department and active can change meanwhile', 'mutability');
    case 'quota_finished':
      return new ScimError(403, `quota_finished: no seat left${app ? ` for the app ${app}` : ''} (apps for provisioned people); nothing was changed`);
    case 'app-not-contracted':
      return new ScimError(403, `app-not-contracted: the app ${app} of "apps for provisioned people" is not contracted any more; nothing was changed`);
    case 'sso_users_limit_exceeded':
      return new ScimError(403, 'sso_users_limit_exceeded: the SSO users limit of the subscription is reached; nothing was changed');
    case 'cannot-deactivate-last-admin':
      return new ScimError(400, 'cannot-deactivate-last-admin: the last administrator of the tenant stays active', 'mutability');
    case 'cannot-delete-last-admin':
      return new ScimError(409, 'cannot-delete-last-admin: the last administrator of the tenant cannot be removed');
    case 'feature-not-subscribed':
      return new ScimError(403, 'feature-not-subscribed: SCIM provisioning comes with the single sign-on (SSO) subscription');
    case 'too-many-attempts':
      return new ScimError(429, 'too-many-attempts: slow down', undefined, Number(e.details.duration) || 60);
    case 'payload-too-large':
      return new ScimError(413, 'payload-too-large');
    default:
      return new ScimError(e.status >= 500 ? 500 : 400, e.word, e.status >= 500 ? undefined : 'invalidValue');
  }
}
