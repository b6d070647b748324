// SP-initiated SAML sign-in and single logout for one tenant (decision 0015): the AuthnRequest is
// a browser-bound, single-use row; the assertion consumer adds every check node-saml leaves to
// its caller; the JIT rule admits only existing members of THIS tenant (decision 0016).
import { eq, gt, isNull, lt } from 'drizzle-orm';
import type { Profile } from '@node-saml/node-saml';
import type { Deps } from '../../deps';
import { samlAssertions, samlRequests, samlSettings, sessions, tenantUsers, users, type SamlSetting, type Tenant, type User } from '../../db/schema';
import { safeContinuePath } from '../../shared/sign-in/continue-path';
import { AppError } from '../errors';
import { sha256Hex } from '../security/tokens';
import { completeSignIn, type SignIn } from '../sign-in/complete-sign-in';
import type { FreshTenant } from '../tenants/hosts';
import { scopedRead, tenantScope, type TenantScope } from '../tenants/scope';
import { joinCertificates, storedCertificates } from './certificates';
import { checkResponseShape, decodeSamlXml, parseStrict, SamlRefusal, statusOf } from './xml-guard';
import { newRequestId, RELAY_STATE_MAX_BYTES, SAML_CLOCK_SKEW_MS, SAML_REQUEST_TTL_MS, samlFor, spUrls } from './sp';
import { type ClientInfo } from '../sign-in/client';

const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
/** Replay-cache rows outlive any assertion we would still accept (NotOnOrAfter + skew). */
const REPLAY_TTL_MS = 24 * 60 * 60_000;

// Built once (scopedRead): drizzle building this select took 90 of the SSO screen's 100 µs here.
const settingRow = scopedRead((s) => s.db.select().from(samlSettings).where(s.own(samlSettings)));

export async function loadSetting(scope: TenantScope): Promise<SamlSetting | null> {
  const rows: SamlSetting[] = await settingRow(scope, {});
  return rows[0] ?? null;
}

export function testPassedPath(base: string) {
  return `${base}/saml-test-passed`;
}

/**
 * A RelayState we accept: a same-portal path (no origin, no scheme) of at most 80 bytes, as the
 * bindings require. Anything else is null and the caller uses the tenant default.
 */
export function validRelayState(value: string | null | undefined, base: string, appPaths: string[]): string | null {
  if (!value || new TextEncoder().encode(value).length > RELAY_STATE_MAX_BYTES) return null;
  return safeContinuePath(value, base, appPaths);
}

export interface StartInput {
  tenant: Tenant;
  relayState: string | null;
  bindingToken: string;
  appPaths: string[];
}

/** saml2/all/login: stores the request (browser-bound) and answers the IdP redirect URL. */
export async function startLogin(deps: Deps, input: StartInput): Promise<string> {
  const { db, config, clock } = deps;
  const base = config.BASE_PATH;
  const scope = tenantScope(db, input.tenant);
  const setting = await loadSetting(scope);
  // The full validated path is kept server-side with the request; the RelayState sent to the
  // IdP is that path only when it fits the binding's 80 bytes.
  const relay = safeContinuePath(input.relayState, base, input.appPaths) ?? `${base}/login`;
  const sent = new TextEncoder().encode(relay).length <= RELAY_STATE_MAX_BYTES ? relay : '';
  const isTest = relay === testPassedPath(base);
  if (!setting) throw new AppError('sso-not-configured');
  // The connection test runs before SSO is switched on. It needs no session here: the admin may
  // work on the custom host while the test runs on the initial one, and a test starts no session.
  if (!isTest && !(input.tenant.isSsoEnabled && setting.isIdpConfigured)) throw new AppError('sso-not-configured');
  const now = clock.now();
  const id = newRequestId();
  await db.batch([
    scope.delete(samlRequests, lt(samlRequests.expiresAt, now)),
    scope.delete(samlAssertions, lt(samlAssertions.expiresAt, now)),
    scope.insert(samlRequests, {
      id,
      browserBindingHash: sha256Hex(input.bindingToken),
      relayState: relay,
      expiresAt: now + SAML_REQUEST_TTL_MS,
      createdAt: now,
    }),
  ]);
  return samlFor(config, input.tenant, setting, id).getAuthorizeUrlAsync(sent, undefined, {});
}

export type AcsResult =
  | { kind: 'signed-in'; user: User; signIn: SignIn; destination: string }
  | { kind: 'test-passed'; nameId: string; destination: string };

export interface AcsInput {
  /** As this request read it: the ACS decides who enters (decision 0035). */
  tenant: FreshTenant;
  samlResponse: string;
  relayState: string | null;
  bindingToken: string | null;
  client: ClientInfo;
  appPaths: string[];
}

function time(value: string | undefined, what: string): number | null {
  if (value === undefined) return null;
  const t = Date.parse(value);
  if (!Number.isFinite(t)) throw new SamlRefusal(`bad-${what}`);
  return t;
}

type Xml2Js = { $?: Record<string, string>; _?: string; [k: string]: unknown };
const first = (v: unknown): Xml2Js | undefined => (Array.isArray(v) ? (v[0] as Xml2Js) : undefined);
const text = (v: unknown): string | undefined => {
  const f = first(v);
  return typeof f === 'string' ? f : f?._;
};

/** Checks on the SIGNED assertion node-saml returned (never on the unsigned envelope alone). */
function checkSignedAssertion(profile: Profile, expect: { idpEntityId: string; acsUrl: string; entityId: string; inResponseTo: string; now: number }) {
  const assertion = (profile.getAssertion?.() as { Assertion?: Xml2Js } | undefined)?.Assertion;
  if (!assertion) throw new SamlRefusal('no-assertion');
  if (text(assertion.Issuer) !== expect.idpEntityId) throw new SamlRefusal('issuer');
  const assertionId = assertion.$?.ID;
  if (!assertionId) throw new SamlRefusal('assertion-id');
  const nameId = profile.nameID;
  if (!nameId || nameId !== nameId.trim() || nameId.length > 512) throw new SamlRefusal('name-id');
  const subject = first(assertion.Subject);
  const confirmations = (subject?.SubjectConfirmation as Xml2Js[] | undefined) ?? [];
  const bearer = confirmations.find((sc) => {
    if (sc.$?.Method !== 'urn:oasis:names:tc:SAML:2.0:cm:bearer') return false;
    const d = first(sc.SubjectConfirmationData)?.$;
    if (!d || d.Recipient !== expect.acsUrl || d.InResponseTo !== expect.inResponseTo) return false;
    const notOnOrAfter = time(d.NotOnOrAfter, 'subject-not-on-or-after');
    const notBefore = time(d.NotBefore, 'subject-not-before');
    if (notOnOrAfter === null || expect.now - SAML_CLOCK_SKEW_MS >= notOnOrAfter) return false;
    return notBefore === null || expect.now + SAML_CLOCK_SKEW_MS >= notBefore;
  });
  if (!bearer) throw new SamlRefusal('subject-confirmation');
  const conditions = first(assertion.Conditions);
  if (!conditions) throw new SamlRefusal('conditions');
  const notBefore = time(conditions.$?.NotBefore, 'not-before');
  const notOnOrAfter = time(conditions.$?.NotOnOrAfter, 'not-on-or-after');
  if (notBefore !== null && expect.now + SAML_CLOCK_SKEW_MS < notBefore) throw new SamlRefusal('not-yet-valid');
  if (notOnOrAfter === null || expect.now - SAML_CLOCK_SKEW_MS >= notOnOrAfter) throw new SamlRefusal('expired');
  const audiences = ((conditions.AudienceRestriction as Xml2Js[] | undefined) ?? []).map((r) => ((r.Audience as unknown[]) ?? []).map((a) => (typeof a === 'string' ? a : (a as Xml2Js)._)));
  if (audiences.length === 0 || !audiences.every((list) => list.includes(expect.entityId))) throw new SamlRefusal('audience');
  const authn = first(assertion.AuthnStatement);
  return { assertionId, nameId, nameIdFormat: profile.nameIDFormat ?? null, sessionIndex: authn?.$?.SessionIndex ?? null };
}

function classify(err: unknown): string {
  const m = String((err as Error)?.message ?? err).toLowerCase();
  if (m.includes('signature')) return 'signature';
  if (m.includes('audience')) return 'audience';
  if (m.includes('expired') || m.includes('not yet valid')) return 'time';
  return 'invalid-response';
}

/** The assertion consumer. Throws SamlRefusal (or AppError from the entry rules) on any failure. */
export async function consumeResponse(deps: Deps, input: AcsInput): Promise<AcsResult> {
  const { db, config, clock } = deps;
  const base = config.BASE_PATH;
  const now = clock.now();
  const scope = tenantScope(db, input.tenant);
  const setting = await loadSetting(scope);
  if (!setting) throw new SamlRefusal('not-configured');
  const urls = spUrls(config, input.tenant);

  const xml = decodeSamlXml(input.samlResponse);
  const doc = parseStrict(xml);
  const status = statusOf(doc);
  if (status !== SUCCESS) throw new SamlRefusal('status');
  const shape = checkResponseShape(doc);
  if (shape.destination !== urls.acsUrl) throw new SamlRefusal('destination');
  if (shape.issuer !== null && shape.issuer !== setting.idpEntityId) throw new SamlRefusal('issuer');
  // Unsolicited (IdP-initiated) responses are refused: there is no request to bind them to.
  if (!shape.inResponseTo) throw new SamlRefusal('in-response-to');

  // Only certificates still within their validity verify (decision 0042): when every one has
  // ended, or the signature fails and one has, the refusal names the expiry (the page says so).
  const certs = storedCertificates(setting.idpX509Cert);
  const current = certs.filter((c) => c.notAfter > now);
  const ended = certs.filter((c) => c.notAfter <= now);
  const endedAt = ended.length ? Math.max(...ended.map((c) => c.notAfter)) : undefined;
  if (current.length === 0) throw new SamlRefusal('certificate-expired', endedAt);
  let profile: Profile | null;
  try {
    ({ profile } = await samlFor(config, input.tenant, { ...setting, idpX509Cert: joinCertificates(current) }).validatePostResponseAsync({ SAMLResponse: input.samlResponse }));
  } catch (err) {
    const reason = classify(err);
    if (reason === 'signature' && endedAt !== undefined) throw new SamlRefusal('certificate-expired', endedAt);
    throw new SamlRefusal(reason);
  }
  if (!profile) throw new SamlRefusal('no-assertion');
  const a = checkSignedAssertion(profile, { idpEntityId: setting.idpEntityId, acsUrl: urls.acsUrl, entityId: urls.entityId, inResponseTo: shape.inResponseTo, now });

  // Single use and bound to this browser: one compare-and-set (D1 has no interactive transactions).
  if (!input.bindingToken) throw new SamlRefusal('in-response-to');
  const consumed = await scope
    .update(
      samlRequests,
      { usedAt: now },
      eq(samlRequests.id, shape.inResponseTo),
      eq(samlRequests.browserBindingHash, sha256Hex(input.bindingToken)),
      isNull(samlRequests.usedAt),
      gt(samlRequests.expiresAt, now),
    )
    .returning({ relayState: samlRequests.relayState });
  if (consumed.length !== 1) throw new SamlRefusal('in-response-to');
  // Replay cache: the (tenant, assertion id) primary key lets exactly one insert win.
  const fresh = await scope
    .insert(samlAssertions, { assertionId: a.assertionId, expiresAt: now + REPLAY_TTL_MS })
    .onConflictDoNothing()
    .returning({ id: samlAssertions.assertionId });
  if (fresh.length !== 1) throw new SamlRefusal('replay');

  const stored = consumed[0]!.relayState;
  if (stored === testPassedPath(base)) return { kind: 'test-passed', nameId: a.nameId, destination: stored };
  if (!(input.tenant.isSsoEnabled && setting.isIdpConfigured)) throw new SamlRefusal('sso-disabled');

  const user = await findMember(scope, a.nameId);
  if (!user) throw new SamlRefusal('not-a-member');
  if (!user.member.isSsoEnabled) throw new SamlRefusal('sso-not-enabled-for-user');
  let outcome;
  try {
    // The IdP authenticated the person (with its own MFA) for this tenant only: the session can
    // never hand off into another tenant (completeSignIn marks it).
    outcome = await completeSignIn(deps, {
      user: user.user,
      via: 'sso',
      hostTenant: input.tenant,
      client: input.client,
      remember: false,
      compliance: null,
      saml: { nameId: a.nameId, nameIdFormat: a.nameIdFormat, sessionIndex: a.sessionIndex },
    });
  } catch (err) {
    throw new SamlRefusal(err instanceof AppError ? err.code : 'entry');
  }
  if (outcome.kind !== 'session') throw new SamlRefusal('entry');
  const signIn = outcome.session;
  const destination = validRelayState(input.relayState, base, input.appPaths) ?? safeContinuePath(stored, base, input.appPaths) ?? `${base}/login`;
  return { kind: 'signed-in', user: user.user, signIn, destination };
}

/**
 * The member of THIS tenant the NameID names: the member's stored SAML name id first, else the
 * user's email (case-insensitive). Never a user of another tenant, never a new user (decision 0016).
 */
async function findMember(scope: TenantScope, nameId: string) {
  const byNameId = await scope.db
    .select({ user: users, member: tenantUsers })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(scope.own(tenantUsers, eq(tenantUsers.samlNameId, nameId), isNull(tenantUsers.operationStatus), eq(tenantUsers.invitationPending, false)))
    .all();
  if (byNameId.length === 1) return byNameId[0]!;
  if (byNameId.length > 1) throw new SamlRefusal('ambiguous-name-id');
  const byEmail = await scope.db
    .select({ user: users, member: tenantUsers })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(scope.own(tenantUsers, eq(users.email, nameId.toLowerCase()), isNull(tenantUsers.samlNameId), isNull(tenantUsers.operationStatus), eq(tenantUsers.invitationPending, false)))
    .get();
  return byEmail ?? null;
}

/** Logout of an SSO session: the IdP's single-logout URL with a LogoutRequest, or null. */
export async function singleLogoutUrl(deps: Deps, tenant: Tenant | null, session: { authMethod: string; samlNameId: string | null; samlNameIdFormat: string | null; samlSessionIndex: string | null }): Promise<string | null> {
  if (!tenant || session.authMethod !== 'sso' || !session.samlNameId) return null;
  const setting = await loadSetting(tenantScope(deps.db, tenant));
  if (!setting?.idpSloUrl) return null;
  const profile = {
    issuer: setting.idpEntityId,
    nameID: session.samlNameId,
    nameIDFormat: session.samlNameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
    ...(session.samlSessionIndex ? { sessionIndex: session.samlSessionIndex } : {}),
  } as Profile;
  return samlFor(deps.config, tenant, setting).getLogoutUrlAsync(profile, '', {});
}

/**
 * The IdP's LogoutRequest (HTTP-Redirect binding, query signature required, SHA-1 refused): ends
 * this tenant's SSO sessions of that NameID (and SessionIndex when given); answers the
 * LogoutResponse URL to send the browser back to.
 */
export async function idpLogout(deps: Deps, tenant: Tenant, query: Record<string, string>, originalQuery: string): Promise<{ ended: number; responseUrl: string | null }> {
  const scope = tenantScope(deps.db, tenant);
  const setting = await loadSetting(scope);
  if (!setting) throw new SamlRefusal('not-configured');
  if (!query.SAMLRequest || !query.Signature || !query.SigAlg) throw new SamlRefusal('unsigned-logout-request');
  if (/sha1$/i.test(query.SigAlg)) throw new SamlRefusal('weak-signature-algorithm');
  const saml = samlFor(deps.config, tenant, setting);
  let profile: Profile | null;
  try {
    ({ profile } = await saml.validateRedirectAsync(query, originalQuery));
  } catch (err) {
    throw new SamlRefusal(classify(err));
  }
  if (!profile?.nameID || profile.issuer !== setting.idpEntityId) throw new SamlRefusal('issuer');
  const index = typeof profile.sessionIndex === 'string' ? profile.sessionIndex : null;
  const ended = await scope
    .delete(sessions, eq(sessions.authMethod, 'sso'), eq(sessions.samlNameId, profile.nameID), index ? eq(sessions.samlSessionIndex, index) : undefined)
    .returning({ id: sessions.id });
  const responseUrl = setting.idpSloUrl ? await saml.getLogoutResponseUrlAsync(profile, query.RelayState ?? '', {}, true) : null;
  return { ended: ended.length, responseUrl };
}

