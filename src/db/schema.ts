// The portal's data model (drizzle, SQLite dialect: D1 in production, libSQL on Node).
// Conventions: timestamps are integer epoch milliseconds; secrets (tokens, codes) are stored only
// as SHA-256 hex digests; every tenant-scoped table carries tenant_id.
import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core';

const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
const bool = (name: string) => integer(name, { mode: 'boolean' }).notNull().default(false);
const createdAt = () => integer('created_at').notNull().default(now);

export const tenants = sqliteTable(
  'tenants',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    initialSubdomain: text('initial_subdomain').notNull(),
    subdomain: text('subdomain'),
    status: text('status', {
      enum: ['trial', 'contracted', 'trial_expired_not_yet_contracted', 'contract_ended', 'suspended'],
    })
      .notNull()
      .default('trial'),
    featureSsoUsersLimit: integer('feature_sso_users_limit').notNull().default(0),
    isFeatureIpRestrictionSubscribed: bool('is_feature_ip_restriction_subscribed'),
    isFeatureTwofaEnforcementSubscribed: bool('is_feature_twofa_enforcement_subscribed'),
    isSsoEnabled: bool('is_sso_enabled'),
    /**
     * When the last of the IdP's trusted certificates ends (decision 0042), kept with the tenant
     * row every request already reads, so the admin screens' banner costs no query. Written in
     * the same statement batch as saml_settings.idp_x509cert.
     */
    ssoCertificateExpiresAt: integer('sso_certificate_expires_at'),
    isIpRestrictionEnabled: bool('is_ip_restriction_enabled'),
    isTwofaEnforced: bool('is_twofa_enforced'),
    isTwofaSkipAllowed: bool('is_twofa_skip_allowed'),
    /** Who must have a passkey (decision 0039): allowed (nobody), admins, everyone. Enforced only
     *  with the 2FA enforcement subscription, on the same screen. */
    passkeyPolicy: text('passkey_policy', { enum: ['allowed', 'admins', 'everyone'] }).notNull().default('allowed'),
    minimumPasswordLength: integer('minimum_password_length').notNull().default(8),
    isMixedCaseRequired: integer('is_mixed_case_required', { mode: 'boolean' }).notNull().default(true),
    isNumberRequired: integer('is_number_required', { mode: 'boolean' }).notNull().default(true),
    isSpecialCharacterRequired: integer('is_special_character_required', { mode: 'boolean' })
      .notNull()
      .default(true),
    passwordPolicyUpdatedAt: integer('password_policy_updated_at'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at').notNull().default(now),
  },
  (t) => [
    uniqueIndex('tenants_initial_subdomain_uq').on(t.initialSubdomain),
    uniqueIndex('tenants_subdomain_uq').on(t.subdomain),
  ],
);

/** Apps a tenant has contracted, with their seat counts (null = unlimited). */
/**
 * Every host label of every tenant, initial and custom, in one column with one unique key: a
 * label can belong to one tenant only, by construction. Triggers on `tenants` (migration 0002)
 * keep it in step with tenants.initial_subdomain and tenants.subdomain in the same statement, so
 * no code path (and no concurrent pair of claims) can give two tenants one label.
 */
export const tenantHosts = sqliteTable(
  'tenant_hosts',
  {
    label: text('label').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['initial', 'custom'] }).notNull(),
  },
  (t) => [uniqueIndex('tenant_hosts_tenant_kind_uq').on(t.tenantId, t.kind)],
);

export const tenantApps = sqliteTable(
  'tenant_apps',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    app: text('app', { enum: ['meishi', 'scheduler', 'meishi_operator'] }).notNull(),
    seats: integer('seats'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.app] })],
);

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    /** Stored lower-cased; unique across the portal (one identity, many tenants). */
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    passwordChangedAt: integer('password_changed_at'),
    /** zxcvbn score of the current password, taken when it was set (it depends only on the
     *  password and the email), so a login does not pay for scoring again. */
    passwordScore: integer('password_score'),
    /** What the password is made of (length, character kinds; never the password), packed by
     *  src/shared/account/password-policy.ts, so a stricter policy can be previewed (decision 0043).
     *  Null until the password is next set or typed at a sign-in. */
    passwordTraits: integer('password_traits'),
    contactNumber: text('contact_number'),
    twofaMethod: text('twofa_method', { enum: ['app', 'sms'] }),
    emailVerifiedAt: integer('email_verified_at'),
    language: text('language', { enum: ['ja', 'en'] }).notNull().default('ja'),
    isTenantManager: bool('is_tenant_manager'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at').notNull().default(now),
  },
  (t) => [uniqueIndex('users_email_uq').on(t.email)],
);

/** Membership of a user in a tenant (the spec's tenant_user pivot). */
export const tenantUsers = sqliteTable(
  'tenant_users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    isAdmin: bool('is_admin'),
    isSsoEnabled: bool('is_sso_enabled'),
    samlNameId: text('saml_name_id'),
    departmentId: integer('department_id').references(() => departments.id, { onDelete: 'set null' }),
    operationStatus: text('operation_status', { enum: ['deleting'] }),
    /** An account that already existed elsewhere was added: nothing counts until the person
     *  accepts (docs/decisions/0027). */
    invitationPending: bool('invitation_pending'),
    /** This tenant's own name for the person when the account's name is the person's (decision 0027). */
    displayName: text('display_name'),
    /** This tenant's reading (フリガナ) of the person's name, in katakana; the users list sorts by it (decision 0045). */
    nameReading: text('name_reading'),
    lastActiveAt: integer('last_active_at'),
    invitedAt: integer('invited_at'),
    deactivatedAt: integer('deactivated_at'),
    meishiAccessGrantedAt: integer('meishi_access_granted_at'),
    schedulerAccessGrantedAt: integer('scheduler_access_granted_at'),
    meishiOperatorAccessGrantedAt: integer('meishi_operator_access_granted_at'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at').notNull().default(now),
  },
  (t) => [
    uniqueIndex('tenant_users_tenant_user_uq').on(t.tenantId, t.userId),
    index('tenant_users_user_idx').on(t.userId),
    index('tenant_users_tenant_created_idx').on(t.tenantId, t.deactivatedAt, t.createdAt),
    index('tenant_users_tenant_department_idx').on(t.tenantId, t.departmentId),
    index('tenant_users_tenant_name_id_idx').on(t.tenantId, t.samlNameId),
  ],
);

export const departments = sqliteTable(
  'departments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The IdP's own id of the group this department is, when SCIM made or matched it (decision 0040). */
    scimExternalId: text('scim_external_id'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at').notNull().default(now),
  },
  (t) => [uniqueIndex('departments_tenant_name_uq').on(t.tenantId, t.name), index('departments_tenant_scim_external_idx').on(t.tenantId, t.scimExternalId)],
);

export const additionalDepartments = sqliteTable(
  'additional_departments',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    tenantUserId: integer('tenant_user_id')
      .notNull()
      .references(() => tenantUsers.id, { onDelete: 'cascade' }),
    departmentId: integer('department_id')
      .notNull()
      .references(() => departments.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantUserId, t.departmentId] }),
    index('additional_departments_tenant_department_idx').on(t.tenantId, t.departmentId),
  ],
);

/** A signed-in browser. The cookie holds a random token; only its hash is here. */
export const sessions = sqliteTable(
  'sessions',
  {
    /** Public id used by the session-devices screen; never the token. */
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Tenant of the host the session lives on; null on the main domain. */
    tenantId: integer('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    remember: bool('remember'),
    twofaPassed: bool('twofa_passed'),
    /** How the user proved who they are: password, sso, handoff (from another host's session). */
    authMethod: text('auth_method').notNull().default('password'),
    device: text('device'),
    os: text('os'),
    browser: text('browser'),
    isNextaMeishiApp: bool('is_nexta_meishi_app'),
    ipAddress: text('ip_address'),
    countryCode: text('country_code'),
    country: text('country'),
    city: text('city'),
    region: text('region'),
    /** When the user last re-entered their password in this session (before 2FA setup). */
    passwordVerifiedAt: integer('password_verified_at'),
    /** SSO sessions: the IdP's NameID and SessionIndex, for single logout in both directions. */
    samlNameId: text('saml_name_id'),
    samlNameIdFormat: text('saml_name_id_format'),
    samlSessionIndex: text('saml_session_index'),
    /** When the person last proved who they are (kept across hand-offs): the absolute lifetime
     *  of an ordinary session counts from here. Null on rows older than the column (createdAt). */
    authenticatedAt: integer('authenticated_at'),
    /** Set when an IdP vouched for the person (directly or through hand-offs from such a
     *  session): that tenant's SSO, which may never hand off into another tenant. */
    ssoTenantId: integer('sso_tenant_id'),
    /** The person skipped an enforced 2FA setup where every enforcing tenant allowed it. */
    twofaSkipped: bool('twofa_skipped'),
    /** The person proved who they are with a passkey (user-verified, bound to the portal's
     *  domain): two factors, kept across hand-offs (decision 0039). */
    passkeyVerified: bool('passkey_verified'),
    createdAt: createdAt(),
    lastActivityAt: integer('last_activity_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_uq').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId, t.lastActivityAt),
    index('sessions_expires_idx').on(t.expiresAt),
  ],
);

/** One-time codes that move a signed-in user from one host to another (tenant chooser, switch). */
export const handoffCodes = sqliteTable(
  'handoff_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sourceSessionId: text('source_session_id').notNull(),
    targetTenantId: integer('target_tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    remember: bool('remember'),
    twofaPassed: bool('twofa_passed'),
    authMethod: text('auth_method').notNull(),
    /** SHA-256 of the hand-off browser cookie of the browser that asked (bound to it). */
    browserHash: text('browser_hash'),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('handoff_codes_expires_idx').on(t.expiresAt)],
);

/**
 * A login that passed the password step but still owes something (one-time code, 2FA setup,
 * additional challenge). The browser holds a random token in a short-lived cookie.
 */
export const loginChallenges = sqliteTable(
  'login_challenges',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['otp', 'enable_twofa', 'additional_challenge', 'enrol_passkey'] }).notNull(),
    remember: bool('remember'),
    /** Hash of a code we sent (additional challenge, SMS); null for authenticator codes. */
    codeHash: text('code_hash'),
    codeExpiresAt: integer('code_expires_at'),
    attempts: integer('attempts').notNull().default(0),
    /** When the last code was sent (resend cooldown). */
    codeSentAt: integer('code_sent_at'),
    /** password_compliance computed at the password step, answered when the challenge completes. */
    compliance: text('compliance', { mode: 'json' }),
    /** Device and network of the attempt, remembered as known once the challenge is passed. */
    deviceFingerprint: text('device_fingerprint'),
    networkFingerprint: text('network_fingerprint'),
    source: text('source'),
    continuePath: text('continue_path'),
    /** When the person proved who they are (a hand-off's source session keeps its own). */
    authenticatedAt: integer('authenticated_at'),
    expiresAt: integer('expires_at').notNull(),
    completedAt: integer('completed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('login_challenges_token_hash_uq').on(t.tokenHash),
    index('login_challenges_user_idx').on(t.userId),
    index('login_challenges_expires_idx').on(t.expiresAt),
  ],
);

export const passwordResets = sqliteTable(
  'password_resets',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('password_resets_token_hash_uq').on(t.tokenHash),
    index('password_resets_user_idx').on(t.userId),
  ],
);

/** Signed-link state for invitations (register) and email verification: a link works once. */
export const emailLinks = sqliteTable(
  'email_links',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['register', 'verify'] }).notNull(),
    email: text('email').notNull(),
    /** SHA-256 of the link's signature: the row that makes a signed link usable once. */
    signatureHash: text('signature_hash').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('email_links_user_purpose_idx').on(t.userId, t.purpose),
    uniqueIndex('email_links_signature_hash_uq').on(t.signatureHash),
  ],
);

export const twofaSecrets = sqliteTable('twofa_secrets', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  method: text('method', { enum: ['app', 'sms'] }).notNull(),
  /** TOTP secret, encrypted with the app's data key (AES-GCM), base64url. */
  secretCiphertext: text('secret_ciphertext'),
  phoneE164: text('phone_e164'),
  /** Last accepted TOTP time step: a code is accepted once (compare-and-set). */
  lastUsedStep: integer('last_used_step'),
  confirmedAt: integer('confirmed_at'),
  createdAt: createdAt(),
});

/**
 * A two-factor setup in progress (account stepper or forced setup at login): the new secret or
 * phone, the backup codes shown, and the SMS code sent. It replaces nothing until confirmed.
 */
export const twofaPending = sqliteTable('twofa_pending', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  method: text('method', { enum: ['app', 'sms'] }),
  secretCiphertext: text('secret_ciphertext'),
  phoneE164: text('phone_e164'),
  /** HMACs of the backup codes shown in this setup. */
  backupCodeHashes: text('backup_code_hashes', { mode: 'json' }).$type<string[]>(),
  /** The same codes, encrypted, so the setup's screens can show them again (read-only GETs). */
  backupCodesCiphertext: text('backup_codes_ciphertext'),
  smsCodeHash: text('sms_code_hash'),
  smsCodeExpiresAt: integer('sms_code_expires_at'),
  smsSentAt: integer('sms_sent_at'),
  expiresAt: integer('expires_at').notNull(),
  createdAt: createdAt(),
});

export const backupCodes = sqliteTable(
  'backup_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: integer('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('backup_codes_user_code_uq').on(t.userId, t.codeHash)],
);

export const rememberedDevices = sqliteTable(
  'remembered_devices',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    device: text('device'),
    os: text('os'),
    browser: text('browser'),
    expiresAt: integer('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('remembered_devices_token_hash_uq').on(t.tokenHash),
    index('remembered_devices_user_idx').on(t.userId),
  ],
);

/** Devices and networks a user has signed in from, for the additional-challenge rule. */
export const knownDevices = sqliteTable(
  'known_devices',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fingerprint: text('fingerprint').notNull(),
    lastSeenAt: integer('last_seen_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.fingerprint] })],
);

/**
 * A person's passkeys (WebAuthn credentials, decision 0039). The relying party is PORTAL_DOMAIN,
 * so one passkey works on every tenant's host; a credential id belongs to one account portal-wide.
 * Only public data is stored: the COSE public key, the signature counter and the backup flags the
 * authenticator reported, its transports and model (AAGUID).
 */
export const passkeys = sqliteTable(
  'passkeys',
  {
    /** Public id used by the account screen and the API; never the credential id. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id, base64url (unique across the portal). */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** Signature counter last seen (0 for authenticators that do not count). */
    counter: integer('counter').notNull().default(0),
    /** BE: the credential may be synced (multi-device); fixed for a credential's life. */
    backupEligible: bool('backup_eligible'),
    /** BS: the credential is backed up (synced) now; may change. */
    backedUp: bool('backed_up'),
    transports: text('transports', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    /** The authenticator model, as the attestation (format none) reports it. */
    aaguid: text('aaguid').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: integer('last_used_at'),
  },
  (t) => [uniqueIndex('passkeys_credential_id_uq').on(t.credentialId), index('passkeys_user_idx').on(t.userId, t.createdAt)],
);

/**
 * WebAuthn challenges (decision 0039): made by the server, single use (claimed by compare-and-set
 * before the response is checked), five minutes, and bound to the browser that asked (the hash of
 * its device cookie) and to what the ceremony is for: the host's tenant for a sign-in, the pending
 * login for a second step or an enrolment at sign-in, the session for an account change.
 */
export const passkeyChallenges = sqliteTable(
  'passkey_challenges',
  {
    /** The challenge itself, base64url (32 random bytes). */
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose', { enum: ['sign-in', 'second-factor', 'enrol', 'register', 'reauth'] }).notNull(),
    /** SHA-256 of the asking browser's device cookie (domain-separated). */
    browserHash: text('browser_hash').notNull(),
    /** The host's tenant (null: the main domain). */
    tenantId: integer('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    /** Account ceremonies and the pending-login ones: whose. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    sessionId: text('session_id'),
    loginChallengeId: text('login_challenge_id'),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('passkey_challenges_expires_idx').on(t.expiresAt)],
);

export const samlSettings = sqliteTable('saml_settings', {
  tenantId: integer('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  idpEntityId: text('idp_entity_id').notNull(),
  idpSsoUrl: text('idp_sso_url').notNull(),
  idpSloUrl: text('idp_slo_url'),
  /** Every IdP signing certificate (PEM blocks one after another): any of them may sign (rollover). */
  idpX509Cert: text('idp_x509cert').notNull(),
  isIdpConfigured: bool('is_idp_configured'),
  /** The IdP's metadata URL the daily job re-reads (decision 0042); null when typed by hand. */
  idpMetadataUrl: text('idp_metadata_url'),
  /** When the daily job last read the metadata URL, and what went wrong then (null: it worked). */
  metadataCheckedAt: integer('metadata_checked_at'),
  metadataError: text('metadata_error'),
  createdAt: createdAt(),
  updatedAt: integer('updated_at').notNull().default(now),
});

/**
 * Certificate expiry warnings sent (decision 0042): one row per tenant, certificate and threshold
 * (30, 7, 1 days). The insert that wins the primary key is the one that sends the mail, so two
 * scheduled runs never mail twice.
 */
export const samlCertificateWarnings = sqliteTable(
  'saml_certificate_warnings',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** SHA-256 hex of the certificate's DER. */
    fingerprint: text('fingerprint').notNull(),
    thresholdDays: integer('threshold_days').notNull(),
    notAfter: integer('not_after').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.fingerprint, t.thresholdDays] })],
);

/** AuthnRequests this portal started: InResponseTo must match one, once. */
export const samlRequests = sqliteTable(
  'saml_requests',
  {
    id: text('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    browserBindingHash: text('browser_binding_hash').notNull(),
    relayState: text('relay_state'),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('saml_requests_expires_idx').on(t.expiresAt)],
);

/** Replay cache: each assertion id is accepted once per tenant until it expires. */
export const samlAssertions = sqliteTable(
  'saml_assertions',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    assertionId: text('assertion_id').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.assertionId] }),
    index('saml_assertions_expires_idx').on(t.expiresAt),
  ],
);

export const whitelistedIps = sqliteTable(
  'whitelisted_ips',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    ipAddress: text('ip_address').notNull(),
    prefixLength: integer('prefix_length').notNull().default(32),
    description: text('description'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('whitelisted_ips_tenant_ip_uq').on(t.tenantId, t.ipAddress, t.prefixLength)],
);

export const tenantContacts = sqliteTable(
  'tenant_contacts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['primary', 'billing'] }).notNull(),
    companyName: text('company_name').notNull(),
    name: text('name').notNull(),
    department: text('department'),
    position: text('position'),
    email: text('email').notNull(),
    contactNumber: text('contact_number').notNull(),
    postalCode: text('postal_code').notNull(),
    address: text('address').notNull(),
    createdAt: createdAt(),
    updatedAt: integer('updated_at').notNull().default(now),
  },
  (t) => [uniqueIndex('tenant_contacts_tenant_kind_uq').on(t.tenantId, t.kind)],
);

export const contractDetails = sqliteTable('contract_details', {
  tenantId: integer('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  trialEndsAt: integer('trial_ends_at'),
  contractStartsAt: integer('contract_starts_at'),
  contractEndsAt: integer('contract_ends_at'),
  contractRenewsAt: integer('contract_renews_at'),
  featureNegotiationsUsersLimit: integer('feature_negotiations_users_limit').notNull().default(0),
  /** Reported by the card app (negotiation features live there). */
  negotiationsActiveAccounts: integer('negotiations_active_accounts').notNull().default(0),
  featureBulkEmailMonthlyLimit: integer('feature_bulk_email_monthly_limit').notNull().default(0),
  bulkEmailMonthlyUsage: integer('bulk_email_monthly_usage').notNull().default(0),
  isFeatureKintoneSubscribed: bool('is_feature_kintone_subscribed'),
  isFeatureSalesforceSubscribed: bool('is_feature_salesforce_subscribed'),
  isFeatureRelationSubscribed: bool('is_feature_relation_subscribed'),
  isFeatureGenieeSubscribed: bool('is_feature_geniee_subscribed'),
  featureScannerAppKeysLimit: integer('feature_scanner_app_keys_limit').notNull().default(0),
  scannerAppActiveKeys: integer('scanner_app_active_keys').notNull().default(0),
  updatedAt: integer('updated_at').notNull().default(now),
});

/** Get-more-services requests and contract applications, for the provider's staff. */
export const serviceRequests = sqliteTable(
  'service_requests',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['get_more_services', 'contract_application'] }).notNull(),
    payload: text('payload', { mode: 'json' }).notNull(),
    handledAt: integer('handled_at'),
    createdAt: createdAt(),
  },
  (t) => [index('service_requests_tenant_idx').on(t.tenantId, t.kind, t.createdAt)],
);

export const importLogs = sqliteTable(
  'import_logs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['add', 'update'] }).notNull(),
    filename: text('filename').notNull(),
    status: text('status', { enum: ['processing', 'success', 'failed'] }).notNull(),
    numberOfUsersUpdated: integer('number_of_users_updated').notNull().default(0),
    error: text('error'),
    startTime: integer('start_time').notNull(),
    endTime: integer('end_time'),
  },
  (t) => [index('import_logs_tenant_idx').on(t.tenantId, t.startTime)],
);

/**
 * A CSV import as a durable job (decision 0030): the upload is streamed into `import_chunks`
 * (pieces cut after a newline byte), then processed a chunk per step into `import_rows`, and only
 * when every row is valid switched into the real tables in one batch. The job belongs to its
 * tenant and to the member who started it; `locked_until` is the lease of whoever runs a step.
 */
export const importJobs = sqliteTable(
  'import_jobs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    importLogId: integer('import_log_id').references(() => importLogs.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['add', 'update'] }).notNull(),
    filename: text('filename').notNull(),
    /** The starter's language: unexpected_format answers the sample's header in it. */
    lang: text('lang', { enum: ['ja', 'en'] }).notNull(),
    status: text('status', { enum: ['uploading', 'queued', 'processing', 'switching', 'previewed', 'success', 'failed'] }).notNull(),
    /** A dry run (decision 0043): every row is staged and checked, then the job waits as
     *  `previewed` with its diff until the admin runs it (or it expires). */
    dryRun: integer('dry_run', { mode: 'boolean' }).notNull().default(false),
    /** When the preview was ready: a member or account changed after it makes the run refuse. */
    previewedAt: integer('previewed_at'),
    /** Decided when the upload ends: utf-8 when every byte is valid UTF-8, else shift_jis. */
    encoding: text('encoding', { enum: ['utf-8', 'shift_jis'] }),
    bytes: integer('bytes').notNull().default(0),
    chunks: integer('chunks').notNull().default(0),
    /** Lines of the file after the header (counted from the newline bytes while uploading). */
    totalRows: integer('total_rows').notNull().default(0),
    /** Records read so far (header excluded). */
    processedRows: integer('processed_rows').notNull().default(0),
    /** Cursor: the next chunk to read and the text of a record cut by the previous chunk's end. */
    nextChunk: integer('next_chunk').notNull().default(0),
    carry: text('carry').notNull().default(''),
    /** The line ending papaparse guessed from the first chunk. */
    newline: text('newline'),
    /** Whether the header row has been read (and matched). */
    headerSeen: integer('header_seen', { mode: 'boolean' }).notNull().default(false),
    /** The file's header has the optional reading column (decision 0045). */
    hasReading: integer('has_reading', { mode: 'boolean' }).notNull().default(false),
    /** Records read so far, header included and blank lines not: the next record's line is this + 1. */
    records: integer('records').notNull().default(0),
    /** Row errors found so far (at most 100, in file order). */
    rowErrors: text('row_errors', { mode: 'json' }).$type<{ row: number; column: string | null; error: string }[]>().notNull().default(sql`'[]'`),
    /** The final answer when it failed: the API envelope's code word, status and details. */
    errorCode: text('error_code'),
    errorStatus: integer('error_status'),
    errorDetails: text('error_details', { mode: 'json' }).$type<Record<string, unknown>>(),
    importedRows: integer('imported_rows'),
    actorIp: text('actor_ip'),
    actorUserAgent: text('actor_user_agent'),
    /** Field delimiter papaparse guessed from the first chunk. */
    delimiter: text('delimiter'),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: integer('locked_until'),
    /** Random per claim: a step's batch fails when another runner has taken the job over. */
    leaseToken: text('lease_token'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at').notNull(),
    finishedAt: integer('finished_at'),
    /** Set once the chunks and staged rows of a finished job are gone. */
    cleanedAt: integer('cleaned_at'),
  },
  (t) => [index('import_jobs_tenant_idx').on(t.tenantId, t.status), index('import_jobs_status_idx').on(t.status, t.lockedUntil)],
);

/** The uploaded bytes of an import job, base64, each piece ending after a newline byte (0x0A). */
export const importChunks = sqliteTable(
  'import_chunks',
  {
    jobId: integer('job_id')
      .notNull()
      .references(() => importJobs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: text('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.seq] })],
);

/**
 * Staged rows of an import job, keyed by their line (record number, header = 1). Rows with a
 * problem are staged too (valid = 0) so a later duplicate of their address is still found.
 */
export const importRows = sqliteTable(
  'import_rows',
  {
    jobId: integer('job_id')
      .notNull()
      .references(() => importJobs.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** The reading cell, normalised; null when the file has no reading column. */
    nameReading: text('name_reading'),
    departmentId: integer('department_id'),
    /** JSON array of additional department ids. */
    extra: text('extra').notNull().default('[]'),
    meishi: integer('meishi').notNull(),
    scheduler: integer('scheduler').notNull(),
    isAdmin: integer('is_admin').notNull(),
    valid: integer('valid').notNull(),
    /** Update imports: the member the row matched while validating (checked again at the switch). */
    userId: integer('user_id'),
    tenantUserId: integer('tenant_user_id'),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.line] }), uniqueIndex('import_rows_job_email_uq').on(t.jobId, t.email)],
);

/** Audit log of admin and sign-in events. */
export const activityLogs = sqliteTable(
  'activity_logs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tenantId: integer('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The actor as they were when the entry was written: the log never changes afterwards,
     *  not when the account is renamed or deleted. */
    actorEmail: text('actor_email'),
    actorName: text('actor_name'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    details: text('details', { mode: 'json' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('activity_logs_tenant_created_idx').on(t.tenantId, t.createdAt),
    // The lock-out previews (decision 0043): a tenant's sign-ins of one kind, by time, with who
    // and from where (covering: the previews never read the table's rows).
    index('activity_logs_tenant_action_idx').on(t.tenantId, t.action, t.createdAt, t.actorUserId, t.ipAddress),
    index('activity_logs_actor_idx').on(t.actorUserId, t.createdAt),
  ],
);

export const maintenanceMessages = sqliteTable(
  'maintenance_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    app: text('app', { enum: ['accounts', 'meishi', 'scheduler'] }).notNull(),
    messageJa: text('message_ja').notNull(),
    messageEn: text('message_en').notNull(),
    startsAt: integer('starts_at'),
    endsAt: integer('ends_at'),
    createdAt: createdAt(),
  },
  (t) => [index('maintenance_messages_app_idx').on(t.app, t.startsAt)],
);

/** Tokens the Outlook add-in holds until login maps them to a user (single use, short-lived). */
export const outlookAddinTokens = sqliteTable(
  'outlook_addin_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('outlook_addin_tokens_expires_idx').on(t.expiresAt)],
);

/** Mail and SMS the portal sent (dev outbox adapter, and a record for support). */
export const outbox = sqliteTable(
  'outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    channel: text('channel', { enum: ['mail', 'sms'] }).notNull(),
    tenantId: integer('tenant_id').references(() => tenants.id, { onDelete: 'set null' }),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_created_idx').on(t.createdAt)],
);

/** Fixed-window counters for rate limits and lock-outs (database-held, not process memory). */
export const throttles = sqliteTable(
  'throttles',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetAt: integer('reset_at').notNull(),
  },
  (t) => [index('throttles_reset_idx').on(t.resetAt)],
);

/** Bearer tokens of the operator API (issue: operating the portal). */
export const operatorTokens = sqliteTable(
  'operator_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    scopes: text('scopes', { mode: 'json' }).$type<string[]>().notNull(),
    revokedAt: integer('revoked_at'),
    lastUsedAt: integer('last_used_at'),
    /** The client address of that last noted use. */
    lastUsedIp: text('last_used_ip'),
    createdAt: createdAt(),
    /**
     * When the token stops working (decision 0036). The default 0 is "already expired": a writer
     * that forgets the column (an older CLI inserting through wrangler) makes a dead token, never
     * an immortal one.
     */
    expiresAt: integer('expires_at').notNull().default(0),
    /** Rotation: the token this one replaced (one successor per token), which works until `replacesUntil`. */
    replacesId: integer('replaces_id'),
    replacesUntil: integer('replaces_until'),
  },
  (t) => [uniqueIndex('operator_tokens_token_hash_uq').on(t.tokenHash), uniqueIndex('operator_tokens_replaces_uq').on(t.replacesId)],
);

export type Tenant = typeof tenants.$inferSelect;
export type User = typeof users.$inferSelect;
export type TenantUser = typeof tenantUsers.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export type AppKey = (typeof tenantApps.$inferSelect)['app'];
export type SamlSetting = typeof samlSettings.$inferSelect;

/**
 * Durable background work (user deletion): the row is written before the work starts, so a
 * restart or an evicted isolate leaves it unfinished and the sweep (cron on Workers, timer on
 * Node) picks it up again. `lockedUntil` is a lease claimed by compare-and-set.
 */
export const backgroundJobs = sqliteTable(
  'background_jobs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tenantId: integer('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['delete_user'] }).notNull(),
    /** The object the job works on (for delete_user: the tenant_users id). */
    targetId: integer('target_id').notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Who started it when no user did: a SCIM token's name (decision 0040), for the final audit entry. */
    actorName: text('actor_name'),
    status: text('status', { enum: ['pending', 'done', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: integer('locked_until'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    finishedAt: integer('finished_at'),
  },
  (t) => [index('background_jobs_status_idx').on(t.status, t.lockedUntil), index('background_jobs_target_idx').on(t.kind, t.targetId)],
);

/**
 * Mail waiting to be sent at a steady rate (invitations from bulk invites and CSV imports). The
 * sender claims rows by compare-and-set, so two drainers never send the same row.
 */
export const mailQueue = sqliteTable(
  'mail_queue',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tenantId: integer('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** invitation: to set a password; added: a registered user now belongs to this tenant too. */
    kind: text('kind', { enum: ['invitation', 'added'] }).notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    availableAt: integer('available_at').notNull(),
    lockedUntil: integer('locked_until'),
    sentAt: integer('sent_at'),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [index('mail_queue_status_idx').on(t.status, t.availableAt), index('mail_queue_user_idx').on(t.userId, t.tenantId)],
);

/**
 * SCIM 2.0 bearer tokens (decision 0040), modelled on the operator tokens (0036): only the SHA-256
 * of "scim_<43 base64url chars>" is stored; each token belongs to one tenant and opens only that
 * tenant's SCIM endpoint. `expires_at` defaults to 0, "already expired", so a writer that forgets
 * it makes a dead token rather than an immortal one.
 */
export const scimTokens = sqliteTable(
  'scim_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The admin who made it on the screen; null when the operators' CLI made it. */
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: integer('expires_at').notNull().default(0),
    revokedAt: integer('revoked_at'),
    lastUsedAt: integer('last_used_at'),
    /** The client address of that last noted use. */
    lastUsedIp: text('last_used_ip'),
  },
  (t) => [uniqueIndex('scim_tokens_token_hash_uq').on(t.tokenHash), index('scim_tokens_tenant_idx').on(t.tenantId, t.createdAt)],
);

/** A tenant's provisioning settings: the apps SCIM gives the people it creates (decision 0040). */
export const scimSettings = sqliteTable('scim_settings', {
  tenantId: integer('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  /** App keys (meishi, scheduler), at least one. */
  apps: text('apps', { mode: 'json' }).$type<string[]>().notNull(),
  updatedAt: integer('updated_at').notNull().default(now),
});

/**
 * What the IdP said about a member through SCIM (decision 0040), beside the membership it
 * describes: its `externalId` (indexed per tenant for `filter=externalId eq`), and the parts of its
 * User resource the portal does not keep in columns of its own (name parts, emails, employee
 * number), echoed back on reads. Goes with the membership (ON DELETE CASCADE).
 */
export const scimUsers = sqliteTable(
  'scim_users',
  {
    tenantUserId: integer('tenant_user_id')
      .primaryKey()
      .references(() => tenantUsers.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    externalId: text('external_id'),
    profile: text('profile', { mode: 'json' }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    createdAt: createdAt(),
    updatedAt: integer('updated_at').notNull().default(now),
  },
  (t) => [index('scim_users_tenant_external_idx').on(t.tenantId, t.externalId)],
);
