// The API catalog: every call under `<base>/api`, with its request schema (the same zod schema
// the route parses with), who may call it and the error code words it answers. The OpenAPI
// description (GET <base>/api/openapi.json) is generated from this list, and a test compares it
// with the routes the app really mounts (tests/integration/openapi.test.ts): a route without an
// entry here, or an entry without a route, fails the build.
import type * as z from 'zod/mini';
import { confirmAffectedSchema, lockoutChangeSchema, passwordPolicySaveSchema, subdomainSchema, twofaSaveSchema, whitelistedIpSchema } from '../../shared/tenant-settings/schemas';
import {
  createTenantSchema,
  listTenantsQuerySchema,
  maintenanceMessageSchema,
  managerSchema,
  serviceRequestsQuerySchema,
  expiringCertificatesQuerySchema,
  updateTenantSchema,
  type OperatorScope,
} from '../../shared/operator/schemas';
import { departmentSchema, inviteSchema, pageQuerySchema, userInputSchema, usersQuerySchema, userUpdateSchema } from '../../shared/people/schemas';
import {
  addinRedeemSchema,
  addinTokenSchema,
  backupCodeSchema,
  changePasswordSchema,
  emailQuerySchema,
  forgotSchema,
  handoffSchema,
  languageSchema,
  loginSchema,
  otpLoginSchema,
  otpSchema,
  twofaSetupSchema,
  registerSchema,
  resetPasswordSchema,
  signedLinkQuerySchema,
  smsContactSchema,
  verifyPasswordSchema,
  verifyResetTokenSchema,
} from '../../shared/schemas';
import { contactSchema, moreServicesSchema } from '../../shared/billing/schemas';
import { idpStatusSchema, metadataSourceSchema, samlSettingSchema } from '../../shared/sso/schemas';
import { passkeyAssertionSchema, passkeyRegistrationSchema, passkeyRemoveSchema, passkeyRenameSchema, passkeySignInSchema } from '../../shared/passkeys/schemas';
import { scimSettingsSchema, scimTokenCreateSchema } from '../../shared/scim/schemas';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call: `public` anyone; `login-challenge` a browser in the middle of a sign-in (challenge
 * cookie); `authenticated` a session; `person` a session the person made with their own
 * credentials (a session a tenant's IdP made speaks for that tenant only and is answered 403
 * `sign-in-required`, decision 0035; enforced for every such entry by `personScopeGuard`);
 * `admin` a tenant admin on the tenant's host;
 * `admin-or-manager` that admin or a tenant manager on the tenant's own host; `signed-link`
 * the holder of a signed mail link; `operator` a bearer token with `scope`.
 */
export type Access = 'public' | 'login-challenge' | 'authenticated' | 'person' | 'admin' | 'admin-or-manager' | 'signed-link' | 'operator';

export interface ApiOperation {
  method: Method;
  /** Hono path under `<base>/api`, exactly as mounted (":id", ":method{app|sms}"). */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  scope?: OperatorScope;
  body?: z.ZodMiniType;
  query?: z.ZodMiniType;
  /** Code words of the `message` field this call answers on failure (beyond the common ones). */
  errors: string[];
  /** Success status when it is not 200. */
  status?: number;
  /** Exempt from the cookie CSRF rule (X-Requested-With + Origin). */
  csrfExempt?: boolean;
}

const op = (o: Omit<ApiOperation, 'errors'> & { errors?: string[] }): ApiOperation => ({ errors: [], ...o });

const AUTH = 'Sign-in';
const ACCOUNT = 'Account';
const TWOFA = 'Two-factor';
const ADMIN = 'Tenant administration';
const PUBLIC = 'Public';
const OPERATOR = 'Operator';
const PEOPLE = 'People administration';
const PASSKEYS = 'Passkeys';

const IMPORT_ERRORS = ['file-too-large', 'incorrect-encoding', 'unexpected_format', 'no_data', 'quota_finished', 'invalid-csv', 'upload-failed', 'imports-in-progress'];

export const API_CATALOG: ApiOperation[] = [
  // Public
  op({ method: 'GET', path: '/maintenance-messages', summary: 'Maintenance messages in force, per app, in the reader\'s language', tag: PUBLIC, access: 'public' }),
  op({ method: 'GET', path: '/saml2/check', summary: 'Whether the host tenant signs in with SAML SSO', tag: PUBLIC, access: 'public' }),
  op({ method: 'GET', path: '/saml2/check-using-email', summary: 'SSO check by email on the main domain', tag: PUBLIC, access: 'public', query: emailQuerySchema, errors: ['too-many-attempts'] }),
  op({ method: 'GET', path: '/saml2/all/metadata', summary: "The host tenant's SAML service-provider metadata (XML)", tag: PUBLIC, access: 'public', errors: ['not-found'] }),
  op({ method: 'GET', path: '/saml2/all/login', summary: "Start SAML sign-in: a redirect to the tenant's IdP with an AuthnRequest (RelayState: a same-portal path of at most 80 bytes)", tag: AUTH, access: 'public', status: 302 }),
  op({ method: 'POST', path: '/saml2/all/acs', summary: "Assertion consumer: the IdP's form POST (SAMLResponse, RelayState); signs the member in or shows the SSO error page", tag: AUTH, access: 'public', status: 302, csrfExempt: true }),
  op({ method: 'GET', path: '/saml2/all/sls', summary: "Single logout: the IdP's signed LogoutRequest (HTTP-Redirect) ends the member's SSO sessions", tag: AUTH, access: 'public', status: 302, errors: ['not-found'] }),
  op({ method: 'GET', path: '/saml2/check-using-email-with-subdomain', summary: 'SSO check by email, answering the tenant subdomain', tag: PUBLIC, access: 'public', query: emailQuerySchema, errors: ['too-many-attempts'] }),
  op({ method: 'GET', path: '/tenants/subdomains/:subdomain', summary: 'A tenant by custom or initial subdomain', tag: PUBLIC, access: 'public', errors: ['not-found', 'too-many-attempts'] }),
  op({ method: 'GET', path: '/users/password-policy/:email', summary: 'Password policy that applies to a user (registration and reset forms)', tag: PUBLIC, access: 'public', errors: ['too-many-attempts'] }),

  // Sign-in
  op({ method: 'POST', path: '/v2/login', summary: 'Sign in with email and password', tag: AUTH, access: 'public', body: loginSchema, errors: ['invalid-credentials', 'deactivated', 'restricted-ip', 'locked-out', 'too-many-attempts', 'redirect-to-sso'] }),
  op({ method: 'POST', path: '/logout', summary: 'Sign out of this host', tag: AUTH, access: 'public' }),
  op({ method: 'GET', path: '/user', summary: 'The signed-in user, memberships and current tenant', tag: AUTH, access: 'public', errors: ['unauthenticated'] }),
  op({ method: 'POST', path: '/handoff', summary: 'One-time hand-off to another tenant host', tag: AUTH, access: 'authenticated', body: handoffSchema, errors: ['not-found', 'handoff-invalid'] }),
  op({ method: 'POST', path: '/additional-challenge/verify', summary: 'Answer the additional challenge mailed at an unusual sign-in', tag: AUTH, access: 'login-challenge', body: otpSchema, errors: ['incorrect-additional-challenge', 'additional-challenge-expired', 'no-pending-login', 'too-many-attempts'] }),
  op({ method: 'POST', path: '/additional-challenge/resend', summary: 'Send the additional challenge code again', tag: AUTH, access: 'login-challenge', errors: ['no-pending-login', 'too-many-attempts'] }),
  op({ method: 'POST', path: '/otp/verify', summary: 'Second factor at sign-in: one-time code', tag: AUTH, access: 'login-challenge', body: otpLoginSchema, errors: ['invalid-otp', 'no-pending-login', 'locked-out', 'too-many-attempts'] }),
  op({ method: 'POST', path: '/backup-code', summary: 'Second factor at sign-in: backup code', tag: AUTH, access: 'login-challenge', body: backupCodeSchema, errors: ['invalid-otp', 'no-pending-login', 'too-many-attempts'] }),
  op({ method: 'POST', path: '/otp/resend', summary: 'Send the sign-in SMS code again', tag: AUTH, access: 'login-challenge', errors: ['no-pending-login', 'no-sms-number', 'too-many-attempts'] }),
  op({ method: 'POST', path: '/setup-twofa-at-login/setup', summary: 'Start the two-factor setup a tenant enforces at sign-in: backup codes and one authenticator secret, made once', tag: AUTH, access: 'login-challenge', errors: ['no-pending-login'] }),
  op({ method: 'GET', path: '/setup-twofa-at-login/app', summary: 'Backup codes and authenticator secret of the started setup at sign-in (read-only)', tag: AUTH, access: 'login-challenge', errors: ['no-pending-login', 'no-pending-setup'] }),
  op({ method: 'POST', path: '/setup-twofa-at-login/app', summary: 'Confirm the enforced authenticator setup at sign-in', tag: AUTH, access: 'login-challenge', body: otpSchema, errors: ['invalid-otp', 'no-pending-login'] }),
  op({ method: 'POST', path: '/setup-twofa-at-login/sms/otp', summary: 'SMS instead of the authenticator in the setup at sign-in: send a code to this mobile number (kept on the pending login; one a minute, 5 an hour per user and per number, 100 an hour per tenant)', tag: AUTH, access: 'login-challenge', body: smsContactSchema, errors: ['no-pending-login', 'no-pending-setup', 'too-many-attempts'] }),
  op({ method: 'POST', path: '/setup-twofa-at-login/sms/otp/resend', summary: 'Send the setup\'s SMS code at sign-in again (60 seconds after the last)', tag: AUTH, access: 'login-challenge', errors: ['no-pending-login', 'no-pending-setup', 'too-many-attempts'] }),
  op({ method: 'POST', path: '/setup-twofa-at-login/sms', summary: 'Confirm the SMS setup at sign-in with the code; the number becomes the user\'s and the sign-in completes', tag: AUTH, access: 'login-challenge', body: otpSchema, errors: ['invalid-otp', 'locked-out', 'no-pending-login', 'no-pending-setup'] }),
  op({ method: 'POST', path: '/setup-twofa-at-login/skip', summary: 'Skip the enforced setup when the tenant allows it', tag: AUTH, access: 'login-challenge', errors: ['skip-not-allowed', 'no-pending-login'] }),
  op({ method: 'POST', path: '/outlook-sso/map-user', summary: 'Bind an Outlook add-in token (base64url SHA-256 of its verifier) to the signed-in user, after the person confirmed', tag: AUTH, access: 'authenticated', body: addinTokenSchema, errors: ['invalid-token', 'token-already-used'] }),
  op({ method: 'POST', path: '/outlook-sso/redeem', summary: 'The add-in redeems its mapping with the verifier behind the token (single use)', tag: AUTH, access: 'public', body: addinRedeemSchema, errors: ['invalid-token', 'too-many-attempts'], csrfExempt: true }),

  // Passkeys (decision 0039): sign-in on any host, the steps of a pending login, the person's own
  op({ method: 'POST', path: '/passkeys/sign-in/options', summary: 'WebAuthn request options for a passkey sign-in (discoverable credentials; challenge bound to this browser and host, 5 minutes, single use)', tag: PASSKEYS, access: 'public', errors: ['too-many-attempts'] }),
  op({ method: 'POST', path: '/passkeys/sign-in/verify', summary: 'Sign in with a passkey (two factors); then the same rules as every way in', tag: PASSKEYS, access: 'public', body: passkeySignInSchema, errors: ['passkey-invalid', 'deactivated', 'restricted-ip', 'too-many-attempts', 'redirect-to-sso'] }),
  op({ method: 'POST', path: '/passkeys/second-factor/options', summary: 'Request options for a passkey instead of the one-time code (the pending login\'s person\'s passkeys)', tag: PASSKEYS, access: 'login-challenge', errors: ['no-pending-login', 'no-passkey'] }),
  op({ method: 'POST', path: '/passkeys/second-factor/verify', summary: 'Second factor at sign-in: a passkey', tag: PASSKEYS, access: 'login-challenge', body: passkeyAssertionSchema, errors: ['passkey-invalid', 'no-pending-login', 'locked-out'] }),
  op({ method: 'POST', path: '/passkeys/enrolment/options', summary: 'Creation options for the passkey a tenant requires at sign-in', tag: PASSKEYS, access: 'login-challenge', errors: ['no-pending-login', 'passkey-limit-reached'] }),
  op({ method: 'POST', path: '/passkeys/enrolment/verify', summary: 'Add the passkey a tenant requires and finish the sign-in', tag: PASSKEYS, access: 'login-challenge', body: passkeyRegistrationSchema, errors: ['passkey-registration-failed', 'passkey-already-registered', 'no-pending-login', 'too-many-attempts'] }),
  op({ method: 'GET', path: '/passkeys', summary: 'The person\'s passkeys: name, model, added, last used, synced or device-bound', tag: PASSKEYS, access: 'person', errors: ['forbidden'] }),
  op({ method: 'POST', path: '/passkeys/options', summary: 'Creation options for a new passkey (password or passkey confirmed within 15 minutes)', tag: PASSKEYS, access: 'person', errors: ['password-verification-required', 'passkey-limit-reached', 'forbidden'] }),
  op({ method: 'POST', path: '/passkeys', summary: 'Add a passkey (the browser\'s answer to the creation options)', tag: PASSKEYS, access: 'person', body: passkeyRegistrationSchema, status: 201, errors: ['password-verification-required', 'passkey-registration-failed', 'passkey-already-registered', 'passkey-limit-reached', 'too-many-attempts', 'forbidden'] }),
  op({ method: 'PATCH', path: '/passkeys/:id', summary: 'Rename one of the person\'s passkeys', tag: PASSKEYS, access: 'person', body: passkeyRenameSchema, errors: ['not-found', 'forbidden'] }),
  op({ method: 'DELETE', path: '/passkeys/:id', summary: 'Remove one of the person\'s passkeys (the password again); refused for the last way in', tag: PASSKEYS, access: 'person', body: passkeyRemoveSchema, errors: ['wrong_password', 'password-verification-required', 'cannot-remove-last-passkey', 'not-found', 'too-many-attempts', 'forbidden'] }),
  op({ method: 'POST', path: '/passkeys/verify-session/options', summary: 'Request options to confirm who is at the keyboard with one of the person\'s passkeys', tag: PASSKEYS, access: 'person', errors: ['no-passkey', 'forbidden'] }),
  op({ method: 'POST', path: '/passkeys/verify-session', summary: 'Confirm with a passkey instead of the password (security changes open for 15 minutes)', tag: PASSKEYS, access: 'person', body: passkeyAssertionSchema, errors: ['passkey-invalid', 'too-many-attempts', 'forbidden'] }),
  op({ method: 'DELETE', path: '/admin/users/:id/passkeys', summary: 'Remove every passkey of a member of this tenant alone (a lost device); audited', tag: PEOPLE, access: 'admin', errors: ['not-found', 'no-passkey', 'belongs-to-multiple-tenants', 'cannot-remove-last-passkey', 'invitation-pending'] }),

  // Account
  op({ method: 'PATCH', path: '/user/language', summary: 'Change the display language', tag: ACCOUNT, access: 'authenticated', body: languageSchema }),
  op({ method: 'POST', path: '/password/email', summary: 'Mail a password reset link', tag: ACCOUNT, access: 'public', body: forgotSchema, errors: ['too-many-attempts'] }),
  op({ method: 'POST', path: '/password/verify-reset-token', summary: 'Check a reset token before showing the form', tag: ACCOUNT, access: 'public', body: verifyResetTokenSchema, errors: ['invalid-token', 'too-many-attempts'] }),
  op({ method: 'POST', path: '/password/reset', summary: 'Set a new password with a reset token', tag: ACCOUNT, access: 'public', body: resetPasswordSchema, errors: ['failed_to_reset_password', 'invalid-token'] }),
  op({ method: 'POST', path: '/users/register/:id', summary: 'Accept an invitation: set the first password (signed link in the query; each parameter also read as amp;<name>, a conflicting pair is refused)', tag: ACCOUNT, access: 'signed-link', body: registerSchema, query: signedLinkQuerySchema, errors: ['Invalid signature.', 'link-expired', 'already-registered', 'account-deleted', 'too-many-attempts'] }),
  op({ method: 'POST', path: '/users/verify/:id', summary: 'Confirm an email address (signed link in the query; each parameter also read as amp;<name>, a conflicting pair is refused)', tag: ACCOUNT, access: 'signed-link', query: signedLinkQuerySchema, errors: ['Invalid signature.', 'link-expired', 'already-verified', 'account-deleted', 'too-many-attempts'] }),
  op({ method: 'POST', path: '/verification-mail/:id', summary: 'Send a new email verification mail to oneself', tag: ACCOUNT, access: 'authenticated', errors: ['not-found', 'already-verified', 'too-many-attempts'] }),
  op({ method: 'PATCH', path: '/password', summary: 'Change one\'s password', tag: ACCOUNT, access: 'person', body: changePasswordSchema, errors: ['current-password-wrong', 'too-many-attempts'] }),
  op({ method: 'GET', path: '/session-devices', summary: 'Signed-in browsers and remembered devices', tag: ACCOUNT, access: 'authenticated' }),
  op({ method: 'POST', path: '/session-devices/logout-others', summary: 'Sign out every other browser', tag: ACCOUNT, access: 'authenticated' }),
  op({ method: 'GET', path: '/invitations', summary: 'Invitations of this account into other tenants, not yet accepted', tag: ACCOUNT, access: 'person' }),
  op({ method: 'POST', path: '/invitations/:tenantId/accept', summary: 'Accept an invitation: the membership starts to count', tag: ACCOUNT, access: 'person', errors: ['not-found', 'sign-in-required'] }),
  op({ method: 'POST', path: '/invitations/:tenantId/decline', summary: 'Decline an invitation: the pending membership is removed', tag: ACCOUNT, access: 'person', errors: ['not-found', 'sign-in-required'] }),
  op({ method: 'POST', path: '/session-devices/:id/logout', summary: 'Sign out one other browser', tag: ACCOUNT, access: 'authenticated', errors: ['not-found', 'cannot-logout-current-session'] }),
  op({ method: 'DELETE', path: '/session-devices/remembered/:id', summary: 'Forget a remembered two-factor device', tag: ACCOUNT, access: 'person', errors: ['not-found'] }),

  // Two-factor setup in the account
  op({ method: 'POST', path: '/password/verify', summary: 'Re-enter the password before a sensitive change', tag: TWOFA, access: 'person', body: verifyPasswordSchema, errors: ['wrong_password', 'too-many-attempts', 'forbidden'] }),
  op({ method: 'POST', path: '/twofa/setup', summary: 'Start a two-factor setup: backup codes and (authenticator) one secret, made once; replaces an earlier setup', tag: TWOFA, access: 'person', body: twofaSetupSchema, errors: ['password-verification-required', 'forbidden'] }),
  op({ method: 'GET', path: '/twofa/backup-codes', summary: 'Backup codes of the started setup (read-only)', tag: TWOFA, access: 'person', errors: ['password-verification-required', 'forbidden', 'no-pending-setup'] }),
  op({ method: 'GET', path: '/twofa/app/qr', summary: 'QR code (SVG) of the started setup\'s authenticator secret (read-only)', tag: TWOFA, access: 'person', errors: ['password-verification-required', 'forbidden', 'no-pending-setup'] }),
  op({ method: 'GET', path: '/twofa/app/manual-code', summary: 'The started setup\'s authenticator secret as text (read-only)', tag: TWOFA, access: 'person', errors: ['password-verification-required', 'forbidden', 'no-pending-setup'] }),
  op({ method: 'POST', path: '/twofa/sms/otp', summary: 'Send a code to the new SMS number', tag: TWOFA, access: 'person', body: smsContactSchema, errors: ['password-verification-required', 'too-many-attempts', 'forbidden'] }),
  op({ method: 'POST', path: '/twofa/sms/otp/resend', summary: 'Send the SMS setup code again', tag: TWOFA, access: 'person', errors: ['no-pending-setup', 'too-many-attempts', 'forbidden'] }),
  op({ method: 'POST', path: '/twofa/:method{app|sms}', summary: 'Confirm the two-factor setup with a code', tag: TWOFA, access: 'person', body: otpSchema, errors: ['invalid-otp', 'no-pending-setup', 'password-verification-required', 'forbidden'] }),
  op({ method: 'POST', path: '/twofa/backup-codes/regenerate', summary: 'Replace the backup codes (two-factor on; the password typed again)', tag: TWOFA, access: 'person', body: verifyPasswordSchema, errors: ['wrong_password', 'too-many-attempts', 'not-applicable', 'forbidden'] }),
  op({ method: 'DELETE', path: '/twofa', summary: 'Turn two-factor authentication off', tag: TWOFA, access: 'person', errors: ['password-verification-required', 'forbidden'] }),

  // Tenant administration (admin of the host tenant)
  op({ method: 'PATCH', path: '/admin/subdomain', summary: 'Change the custom subdomain (after a password re-entry)', tag: ADMIN, access: 'admin', body: subdomainSchema, errors: ['password-verification-required', 'could-not-change'] }),
  op({ method: 'GET', path: '/admin/whitelisted-ips', summary: 'IP allowlist', tag: ADMIN, access: 'admin' }),
  op({ method: 'POST', path: '/admin/whitelisted-ips', summary: 'Add an address or range to the allowlist', tag: ADMIN, access: 'admin', body: whitelistedIpSchema, status: 201, errors: ['duplicate-ip', 'The ip address must be a public IP address.', 'feature-not-subscribed'] }),
  op({ method: 'DELETE', path: '/admin/whitelisted-ips/:id', summary: 'Remove an allowlist entry (confirmAffected: the lock-out preview\'s count, when it affects anyone)', tag: ADMIN, access: 'admin', query: confirmAffectedSchema, errors: ['not-found', 'cannot-delete', 'lockout-confirmation-required'] }),
  op({ method: 'POST', path: '/admin/lockout-preview', summary: 'Who a 2FA, allowlist or password-policy change would keep out, before it is saved', tag: ADMIN, access: 'admin', body: lockoutChangeSchema, errors: ['not-found', 'feature-not-subscribed'] }),
  // SCIM provisioning (decision 0040); the protocol itself (<base>/scim/v2) describes itself through ServiceProviderConfig, ResourceTypes and Schemas.
  op({ method: 'GET', path: '/admin/scim', summary: 'Provisioning (SCIM): base URL, tokens (never their secrets), apps for provisioned people', tag: ADMIN, access: 'admin' }),
  op({ method: 'POST', path: '/admin/scim/tokens', summary: 'Make a SCIM token (the secret is in this answer only)', tag: ADMIN, access: 'admin', body: scimTokenCreateSchema, status: 201, errors: ['scim-token-limit', 'feature-not-subscribed'] }),
  op({ method: 'DELETE', path: '/admin/scim/tokens/:id', summary: 'Revoke a SCIM token', tag: ADMIN, access: 'admin', errors: ['not-found'] }),
  op({ method: 'PATCH', path: '/admin/scim/settings', summary: 'Apps for provisioned people', tag: ADMIN, access: 'admin', body: scimSettingsSchema, errors: ['app-not-contracted', 'feature-not-subscribed'] }),
  op({ method: 'PATCH', path: '/admin/enable-ip-restriction', summary: 'Enforce the IP allowlist (confirmAffected: the lock-out preview\'s count, when it affects anyone)', tag: ADMIN, access: 'admin', query: confirmAffectedSchema, errors: ['feature-not-subscribed', 'your-current-ip-address-is-not-whitelisted', 'lockout-confirmation-required'] }),
  op({ method: 'PATCH', path: '/admin/disable-ip-restriction', summary: 'Stop enforcing the IP allowlist', tag: ADMIN, access: 'admin' }),
  op({ method: 'GET', path: '/admin/twofa', summary: 'Two-factor enforcement settings', tag: ADMIN, access: 'admin' }),
  op({ method: 'POST', path: '/admin/twofa', summary: 'Change two-factor enforcement', tag: ADMIN, access: 'admin', body: twofaSaveSchema, errors: ['feature-not-subscribed', 'lockout-confirmation-required'] }),
  op({ method: 'GET', path: '/admin/password-policy', summary: 'Password policy', tag: ADMIN, access: 'admin' }),
  op({ method: 'PATCH', path: '/admin/password-policy', summary: 'Change the password policy', tag: ADMIN, access: 'admin', body: passwordPolicySaveSchema, errors: ['lockout-confirmation-required'] }),
  op({ method: 'GET', path: '/admin/tenant-contacts', summary: 'Primary and billing contacts', tag: ADMIN, access: 'admin' }),
  op({ method: 'POST', path: '/admin/tenant-contacts/billing-contact', summary: 'Add the billing contact', tag: ADMIN, access: 'admin', body: contactSchema, status: 201, errors: ['billing-contact-exists'] }),
  op({ method: 'PATCH', path: '/admin/tenant-contacts/:id', summary: 'Change a contact', tag: ADMIN, access: 'admin', body: contactSchema, errors: ['not-found'] }),
  op({ method: 'DELETE', path: '/admin/tenant-contacts/:id', summary: 'Remove the billing contact', tag: ADMIN, access: 'admin', errors: ['not-found', 'cannot-delete-primary-contact'] }),
  // People administration (spec 02 sections 2-9; endpoint notes in src/shared/people/schemas.ts)
  op({ method: 'GET', path: '/admin/users', summary: 'One page of active users with the toolbar counts (search, sort, order, page, perPage)', tag: PEOPLE, access: 'admin-or-manager', query: usersQuerySchema }),
  op({ method: 'POST', path: '/admin/users', summary: 'Add a user (invited by mail, or added to this tenant when already registered)', tag: PEOPLE, access: 'admin-or-manager', body: userInputSchema, status: 201, errors: ['quota_finished', 'user_already_exists', 'sso_users_limit_exceeded', 'saml-name-id-taken', 'not-found'] }),
  op({ method: 'PATCH', path: '/admin/users/:id', summary: "Edit a user; a new email is invited again ('sent-register-mail-to-new-email-id')", tag: PEOPLE, access: 'admin-or-manager', body: userUpdateSchema, errors: ['cannot-make-last-admin-as-non-admin', 'duplicate-email', 'belongs-to-multiple-tenants', 'sso_users_limit_exceeded', 'quota_finished', 'saml-name-id-taken', 'not-found'] }),
  op({ method: 'DELETE', path: '/admin/users/:id', summary: 'Delete a user: 202 while the durable deletion job runs, 204 when done', tag: PEOPLE, access: 'admin-or-manager', status: 202, errors: ['cannot-delete-last-admin', 'not-found'] }),
  op({ method: 'POST', path: '/admin/users/:id/deactivate', summary: "Deactivate a user (the user's sessions end at once)", tag: PEOPLE, access: 'admin-or-manager', errors: ['cannot-deactivate-last-admin', 'not-found'] }),
  op({ method: 'POST', path: '/admin/users/:id/reactivate', summary: 'Reactivate a user (refused without a free seat)', tag: PEOPLE, access: 'admin-or-manager', errors: ['quota_finished', 'sso_users_limit_exceeded', 'not-found'] }),
  op({ method: 'GET', path: '/admin/users/:id/cards-count', summary: "The user's card count, as reported by the card app", tag: PEOPLE, access: 'admin-or-manager', errors: ['not-found', 'app-usage-unavailable'] }),
  op({ method: 'GET', path: '/admin/users/:id/schedules-count', summary: "The user's schedule count, as reported by the scheduler", tag: PEOPLE, access: 'admin-or-manager', errors: ['not-found', 'app-usage-unavailable'] }),
  op({ method: 'POST', path: '/admin/users/invite', summary: "Resend invitations to some users, or to every user who has not registered ('all')", tag: PEOPLE, access: 'admin-or-manager', body: inviteSchema, errors: ['already-registered'] }),
  op({ method: 'POST', path: '/admin/users/enable-sso-for-all/preview', summary: 'Who SSO for all users would send to an IdP that has never signed them in', tag: PEOPLE, access: 'admin-or-manager' }),
  op({ method: 'POST', path: '/admin/users/enable-sso-for-all', summary: 'Turn SSO on for every active user (confirmAffected: the preview\'s count, when it affects anyone)', tag: PEOPLE, access: 'admin-or-manager', query: confirmAffectedSchema, errors: ['cannot-enable-sso-for-all-users', 'lockout-confirmation-required'] }),
  op({ method: 'POST', path: '/admin/users/disable-sso-for-all', summary: 'Turn SSO off for every active user', tag: PEOPLE, access: 'admin-or-manager', errors: ['cannot-enable-sso-for-all-users'] }),
  op({ method: 'GET', path: '/admin/deactivated-users', summary: 'Deactivated users, newest deactivation first, 25 per page', tag: PEOPLE, access: 'admin-or-manager', query: pageQuerySchema }),
  op({ method: 'GET', path: '/admin/apps/allowed', summary: "The tenant's apps with their free seats", tag: PEOPLE, access: 'admin-or-manager' }),
  op({ method: 'GET', path: '/admin/departments', summary: 'Departments with their user counts', tag: PEOPLE, access: 'admin-or-manager' }),
  op({ method: 'GET', path: '/departments-with-users', summary: 'Departments with their users', tag: PEOPLE, access: 'admin-or-manager' }),
  op({ method: 'POST', path: '/admin/departments', summary: 'Add a department', tag: PEOPLE, access: 'admin-or-manager', body: departmentSchema, status: 201 }),
  op({ method: 'PATCH', path: '/admin/departments/:id', summary: 'Rename a department', tag: PEOPLE, access: 'admin-or-manager', body: departmentSchema, errors: ['not-found'] }),
  op({ method: 'DELETE', path: '/admin/departments/:id', summary: 'Delete a department without users', tag: PEOPLE, access: 'admin-or-manager', errors: ['cannot-delete-department-with-users', 'not-found'] }),
  op({ method: 'GET', path: '/admin/users/export', summary: 'The active members as CSV in the import file columns, reading (フリガナ) last (streamed, UTF-8 with BOM; decision 0045)', tag: PEOPLE, access: 'admin-or-manager' }),
  op({ method: 'GET', path: '/admin/users/import', summary: 'The CSV import sample (users-import-sample.csv)', tag: PEOPLE, access: 'admin-or-manager' }),
  op({ method: 'POST', path: '/admin/users/import', summary: 'Add users from a CSV file (multipart csvFile, UTF-8 or Shift_JIS, up to 50 MB; all rows or none). Files up to 1 MiB are answered when done; larger ones 202 {message: processing, jobId} (decision 0030)', tag: PEOPLE, access: 'admin-or-manager', errors: IMPORT_ERRORS }),
  op({ method: 'POST', path: '/admin/users/import/update', summary: 'Edit users from a CSV file (multipart csvFile; all rows or none)', tag: PEOPLE, access: 'admin-or-manager', errors: IMPORT_ERRORS }),
  op({ method: 'GET', path: '/admin/users/import/update/logs', summary: "The tenant's import log", tag: PEOPLE, access: 'admin-or-manager' }),
  op({ method: 'GET', path: '/admin/users/import/:jobId{[0-9]+}/preview', summary: 'A dry-run import\'s diff (POST import or import/update with ?preview=1): people added, fields changed before and after, counts (decision 0043)', tag: PEOPLE, access: 'admin-or-manager', errors: ['not-found', 'import-not-previewed'] }),
  op({ method: 'POST', path: '/admin/users/import/:jobId{[0-9]+}/run', summary: 'Run a previewed import: applies exactly the previewed rows; refused when a member it touches changed since the preview; parallel runs apply once', tag: PEOPLE, access: 'admin-or-manager', errors: ['not-found', 'import-not-previewed', 'import-target-changed', ...IMPORT_ERRORS] }),
  op({ method: 'GET', path: '/admin/users/import/:jobId{[0-9]+}', summary: 'Progress of an import that runs as a job (a file over 1 MiB answers 202 with its id): state, rows read of the file\'s rows, and once finished the count or the error answer; only the member who started it', tag: PEOPLE, access: 'admin-or-manager', errors: ['not-found'] }),
  op({ method: 'GET', path: '/admin/activity-logs/export-csv', summary: 'The audit log as CSV (streamed, UTF-8 with BOM)', tag: ADMIN, access: 'admin' }),
  op({ method: 'GET', path: '/admin/saml', summary: "SSO settings: the portal's SP values and the IdP's stored settings", tag: ADMIN, access: 'admin', errors: ['feature-not-subscribed'] }),
  op({ method: 'POST', path: '/admin/saml', summary: "Store the IdP's entity id, sign-on and sign-out URLs and certificate", tag: ADMIN, access: 'admin', body: samlSettingSchema, errors: ['feature-not-subscribed'] }),
  op({ method: 'POST', path: '/admin/saml/metadata', summary: "Read the IdP's metadata (url: fetched by the server under the outbound rules of decision 0042; or xml) into entity id, sign-on and sign-out URLs and certificates, for review; stores nothing", tag: ADMIN, access: 'admin', body: metadataSourceSchema, errors: ['feature-not-subscribed', 'payload-too-large', 'too-many-attempts'] }),
  op({ method: 'GET', path: '/admin/saml/guide/:preset', summary: 'The setup guide of an IdP preset (entra, okta, google, hennge, onelogin, keycloak) in the request language', tag: ADMIN, access: 'admin', errors: ['not-found'] }),
  op({ method: 'PATCH', path: '/admin/saml/configure-idp-status', summary: 'Switch SSO on or off for the tenant', tag: ADMIN, access: 'admin', body: idpStatusSchema, errors: ['sso-not-configured', 'feature-not-subscribed'] }),
  op({ method: 'GET', path: '/admin/contract-details', summary: 'Contract dates, seats, features and usage', tag: ADMIN, access: 'admin' }),
  op({ method: 'POST', path: '/admin/get-more-services', summary: 'Ask the provider for more seats or features', tag: ADMIN, access: 'admin', body: moreServicesSchema, errors: ['nothing-requested', 'invalid-plan'] }),
  op({ method: 'POST', path: '/apply-for-contract', summary: 'Apply for a contract at the end of a trial', tag: ADMIN, access: 'admin', errors: ['not-applicable'] }),

  // Operator (bearer token, main domain only)
  op({ method: 'GET', path: '/operator/whoami', summary: 'The presented token: name and scopes', tag: OPERATOR, access: 'operator' }),
  op({ method: 'GET', path: '/operator/tenants', summary: 'List tenants', tag: OPERATOR, access: 'operator', scope: 'tenants:read', query: listTenantsQuerySchema }),
  op({ method: 'POST', path: '/operator/tenants', summary: 'Create a tenant with its initial subdomain, apps and first administrator (invited by mail)', tag: OPERATOR, access: 'operator', scope: 'tenants:write', body: createTenantSchema, status: 201, errors: ['subdomain-taken', 'subdomain-reserved'] }),
  op({ method: 'GET', path: '/operator/tenants/:id', summary: 'One tenant', tag: OPERATOR, access: 'operator', scope: 'tenants:read', errors: ['not-found'] }),
  op({ method: 'PATCH', path: '/operator/tenants/:id', summary: 'Change name, status, apps and seats, features and limits, contract and trial dates', tag: OPERATOR, access: 'operator', scope: 'tenants:write', body: updateTenantSchema, errors: ['not-found'] }),
  op({ method: 'GET', path: '/operator/sso-certificates', summary: "Tenants whose IdP signing certificates end within `days` (default 30) or have ended, soonest first", tag: OPERATOR, access: 'operator', scope: 'tenants:read', query: expiringCertificatesQuerySchema }),
  op({ method: 'GET', path: '/operator/managers', summary: 'Tenant managers (provider staff)', tag: OPERATOR, access: 'operator', scope: 'managers:read' }),
  op({ method: 'POST', path: '/operator/managers', summary: 'Make a user a tenant manager', tag: OPERATOR, access: 'operator', scope: 'managers:write', body: managerSchema, errors: ['user-not-found'] }),
  op({ method: 'POST', path: '/operator/managers/revoke', summary: 'Take tenant-manager rights away', tag: OPERATOR, access: 'operator', scope: 'managers:write', body: managerSchema, errors: ['user-not-found'] }),
  op({ method: 'GET', path: '/operator/maintenance-messages', summary: 'Maintenance messages not yet ended (all=true: every one)', tag: OPERATOR, access: 'operator', scope: 'maintenance:read' }),
  op({ method: 'POST', path: '/operator/maintenance-messages', summary: 'Post a maintenance message for an app, optionally from/until a time', tag: OPERATOR, access: 'operator', scope: 'maintenance:write', body: maintenanceMessageSchema, status: 201 }),
  op({ method: 'DELETE', path: '/operator/maintenance-messages/:id', summary: 'Remove a maintenance message', tag: OPERATOR, access: 'operator', scope: 'maintenance:write', errors: ['not-found'] }),
  op({ method: 'GET', path: '/operator/service-requests', summary: 'Get-more-services requests and contract applications (pending unless state=all)', tag: OPERATOR, access: 'operator', scope: 'requests:read', query: serviceRequestsQuerySchema }),
  op({ method: 'POST', path: '/operator/service-requests/:id/handled', summary: 'Mark a request handled', tag: OPERATOR, access: 'operator', scope: 'requests:write', errors: ['not-found', 'already-handled'] }),

  // This description itself
  op({ method: 'GET', path: '/openapi.json', summary: 'This API description (OpenAPI 3.1)', tag: PUBLIC, access: 'public' }),
];
