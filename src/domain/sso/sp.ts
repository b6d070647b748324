// The service provider of one tenant: its stable URLs and a node-saml instance over the tenant's
// stored IdP settings. The entity id is the metadata URL on the tenant's INITIAL subdomain, which
// never changes, so a custom-subdomain change does not break the IdP's trust (decision 0015).
import { randomBytes } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import { SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import type { Config } from '../../config';
import type { SamlSetting, Tenant } from '../../db/schema';

/** Clock skew accepted on NotBefore / NotOnOrAfter. */
export const SAML_CLOCK_SKEW_MS = 60_000;
/** How long an AuthnRequest may stay unanswered. */
export const SAML_REQUEST_TTL_MS = 10 * 60_000;
/** RelayState is at most 80 bytes (SAML bindings 3.4.3 / 3.5.3). */
export const RELAY_STATE_MAX_BYTES = 80;

export interface SpUrls {
  entityId: string;
  metadataUrl: string;
  acsUrl: string;
  slsUrl: string;
  loginUrl: string;
}

export const SAML_PATHS = { metadata: '/api/saml2/all/metadata', acs: '/api/saml2/all/acs', sls: '/api/saml2/all/sls', login: '/api/saml2/all/login' } as const;

export function spUrls(config: Pick<Config, 'PUBLIC_URL' | 'BASE_PATH'>, tenant: Pick<Tenant, 'initialSubdomain'>): SpUrls {
  const u = new URL(config.PUBLIC_URL);
  const origin = `${u.protocol}//${tenant.initialSubdomain}.${u.host}${config.BASE_PATH}`;
  return {
    entityId: origin + SAML_PATHS.metadata,
    metadataUrl: origin + SAML_PATHS.metadata,
    acsUrl: origin + SAML_PATHS.acs,
    slsUrl: origin + SAML_PATHS.sls,
    loginUrl: origin + SAML_PATHS.login,
  };
}

/** The NameID format the SP metadata asks for. */
export const SP_NAME_ID_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

export function newRequestId(): string {
  // xs:ID must not start with a digit.
  return '_' + randomBytes(20).toString('hex');
}

export interface ParsedCertificate {
  pem: string;
  notAfter: number;
  notBefore: number;
}

/** Parses a PEM (or bare base64) X.509 certificate; null when it is not one. */
export function parseCertificate(input: string): ParsedCertificate | null {
  const body = input
    .replace(/-----BEGIN CERTIFICATE-----/, '')
    .replace(/-----END CERTIFICATE-----/, '')
    .replace(/\s+/g, '');
  if (!body || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return null;
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  try {
    // An ASN.1 parse (@peculiar/asn1-x509) rather than node:crypto's X509Certificate, which workerd
    // does not provide (decision 0017).
    const cert = AsnConvert.parse(Buffer.from(body, 'base64'), Certificate);
    const validity = cert.tbsCertificate.validity;
    const notAfter = validity.notAfter.getTime().getTime();
    const notBefore = validity.notBefore.getTime().getTime();
    const keyAlg = cert.tbsCertificate.subjectPublicKeyInfo.algorithm.algorithm;
    // RSA (1.2.840.113549.1.1.1) or EC (1.2.840.10045.2.1) keys: what XML signatures use.
    if (!Number.isFinite(notAfter) || !['1.2.840.113549.1.1.1', '1.2.840.10045.2.1'].includes(keyAlg)) return null;
    return { pem, notAfter, notBefore };
  } catch {
    return null;
  }
}

/** The PEM blocks of the stored text (one or more certificates). */
function storedPems(stored: string): string[] {
  const blocks = stored.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g);
  return blocks && blocks.length > 0 ? blocks : [stored];
}

const pemOf = (label: string, der: Uint8Array) => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END ${label}-----\n`;

/**
 * The certificate's public key (SPKI PEM). node-saml verifies with it, not with the certificate:
 * workerd's node:crypto cannot take a public key out of a certificate PEM, so every signature
 * failed there (decision 0017). Only the stored certificate's key is ever trusted.
 */
export function publicKeyPem(certPem: string): string {
  const body = certPem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  const cert = AsnConvert.parse(Buffer.from(body, 'base64'), Certificate);
  return pemOf('PUBLIC KEY', new Uint8Array(AsnConvert.serialize(cert.tbsCertificate.subjectPublicKeyInfo)));
}

export function samlFor(
  config: Pick<Config, 'PUBLIC_URL' | 'BASE_PATH'>,
  tenant: Pick<Tenant, 'initialSubdomain'>,
  setting: Pick<SamlSetting, 'idpEntityId' | 'idpSsoUrl' | 'idpSloUrl' | 'idpX509Cert'>,
  requestId?: string,
): SAML {
  const urls = spUrls(config, tenant);
  return new SAML({
    callbackUrl: urls.acsUrl,
    entryPoint: setting.idpSsoUrl,
    logoutUrl: setting.idpSloUrl ?? setting.idpSsoUrl,
    logoutCallbackUrl: urls.slsUrl,
    issuer: urls.entityId,
    audience: urls.entityId,
    idpIssuer: setting.idpEntityId,
    // Only the stored certificates: a KeyInfo certificate in the message is never trusted. Every
    // stored one is offered (rollover, decision 0042); node-saml accepts a signature by any of them.
    idpCert: setting.idpX509Cert === 'unset' ? 'unset' : storedPems(setting.idpX509Cert).map(publicKeyPem),
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    maxAssertionAgeMs: 0,
    // InResponseTo is checked against the database (browser-bound, single use), not node-saml's
    // in-memory cache, which neither survives isolates nor knows the browser.
    validateInResponseTo: ValidateInResponseTo.never,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  });
}

/** SP metadata XML (entity id, ACS, SLS, signed assertions wanted); needs no IdP settings. */
export function spMetadata(config: Pick<Config, 'PUBLIC_URL' | 'BASE_PATH'>, tenant: Pick<Tenant, 'initialSubdomain'>): string {
  const placeholder = { idpEntityId: 'unset', idpSsoUrl: 'https://unset.invalid/', idpSloUrl: null, idpX509Cert: 'unset' };
  // node-saml announces its logout endpoint with the POST binding; ours is HTTP-Redirect only.
  // The NameID format IdPs should send (decision 0042): the email address, which the portal
  // matches to a member's SAML name id or else their email (schema order: after the logout
  // service, before the assertion consumer).
  return samlFor(config, tenant, placeholder)
    .generateServiceProviderMetadata(null)
    .replace(/(<SingleLogoutService Binding=")urn:oasis:names:tc:SAML:2\.0:bindings:HTTP-POST"/, '$1urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"')
    .replace(/(\s*)<AssertionConsumerService /, `$1<NameIDFormat>${SP_NAME_ID_FORMAT}</NameIDFormat>$1<AssertionConsumerService `);
}
