// A real SAML identity provider for tests: samlify in IdP mode with key pairs generated here
import 'reflect-metadata';
// (node:crypto + @peculiar/x509). It reads the portal's SP metadata, answers AuthnRequests with
// signed responses, and signs LogoutRequests. Attack cases alter its output (tests/support/saml-attacks.ts).
import { webcrypto } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import * as x509 from '@peculiar/x509';
import * as samlify from 'samlify';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);
// The IdP side only parses what our own SP produced; schema validation of requests is not under test.
samlify.setSchemaValidator({ validate: () => Promise.resolve('skipped') });

export interface KeyPair {
  privateKeyPem: string;
  certPem: string;
}

const pem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END ${label}-----\n`;

export async function makeKeyPair(commonName: string, validDays = 365): Promise<KeyPair> {
  const alg = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString('hex').replace(/^[89a-f]/, '1'),
    name: `CN=${commonName}`,
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + validDays * 86_400_000),
    keys,
    signingAlgorithm: alg,
  });
  return { privateKeyPem: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)), certPem: cert.toString('pem') };
}

export const SIG_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const SIG_SHA1 = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';

export interface TestIdpOptions {
  entityId: string;
  ssoUrl: string;
  sloUrl: string;
  keys: KeyPair;
  signatureAlgorithm?: string;
}

const RAW_TAGS = new Set(['AuthnStatement', 'AttributeStatement']);
const escapeXml = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (values[k] !== undefined ? (RAW_TAGS.has(k) ? values[k]! : escapeXml(values[k]!)) : m));
}

export class TestIdp {
  readonly idp: ReturnType<typeof samlify.IdentityProvider>;
  constructor(readonly opts: TestIdpOptions) {
    this.idp = samlify.IdentityProvider({
      entityID: opts.entityId,
      signingCert: opts.keys.certPem,
      privateKey: opts.keys.privateKeyPem,
      requestSignatureAlgorithm: opts.signatureAlgorithm ?? SIG_SHA256,
      nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
      singleSignOnService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: opts.ssoUrl }],
      singleLogoutService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: opts.sloUrl }],
      wantAuthnRequestsSigned: false,
    });
  }

  sp(metadataXml: string, wantMessageSigned = false) {
    // The portal requires signed LogoutRequests (query signature of the Redirect binding).
    return samlify.ServiceProvider({ metadata: metadataXml, wantMessageSigned, wantLogoutRequestSigned: true });
  }

  /** The AuthnRequest id carried by the portal's redirect to the IdP. */
  static requestOf(location: string): { id: string; relayState: string | null; xml: string } {
    const url = new URL(location);
    const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    const id = /\sID="([^"]+)"/.exec(xml)?.[1];
    if (!id) throw new Error('no AuthnRequest ID');
    return { id, relayState: url.searchParams.get('RelayState'), xml };
  }

  /**
   * A signed login response (assertion signed, as the SP metadata asks) for `nameId`. `over`
   * replaces template values (Destination, Audience, times, InResponseTo, StatusCode, ...).
   */
  async response(spMetadataXml: string, p: { inResponseTo: string; nameId: string; over?: Record<string, string>; sessionIndex?: string; signResponseToo?: boolean }): Promise<string> {
    const sp = this.sp(spMetadataXml, p.signResponseToo);
    const now = new Date();
    const later = new Date(now.getTime() + 5 * 60_000);
    const acs = sp.entityMeta.getAssertionConsumerService('post') as string;
    const values: Record<string, string> = {
      ID: '_r' + webcrypto.randomUUID().replace(/-/g, ''),
      AssertionID: '_a' + webcrypto.randomUUID().replace(/-/g, ''),
      Destination: acs,
      Audience: sp.entityMeta.getEntityID(),
      EntityID: sp.entityMeta.getEntityID(),
      SubjectRecipient: acs,
      Issuer: this.opts.entityId,
      IssueInstant: now.toISOString(),
      AssertionConsumerServiceURL: acs,
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: now.toISOString(),
      ConditionsNotOnOrAfter: later.toISOString(),
      SubjectConfirmationDataNotOnOrAfter: later.toISOString(),
      NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      NameID: p.nameId,
      InResponseTo: p.inResponseTo,
      AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${p.sessionIndex ?? '_s' + webcrypto.randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
      AttributeStatement: '',
      ...p.over,
    };
    const { context } = await this.idp.createLoginResponse(sp, { extract: { request: { id: p.inResponseTo } } } as never, 'post', { email: p.nameId }, {
      customTagReplacement: (template: string) => ({ id: values.ID!, context: fill(template, values) }),
    } as never);
    return context;
  }

  /** A LogoutRequest URL (HTTP-Redirect, signed query) to the portal's SLS. */
  async logoutRequestUrl(spMetadataXml: string, nameId: string, sessionIndex?: string): Promise<string> {
    const sp = this.sp(spMetadataXml);
    const { context } = this.idp.createLogoutRequest(sp, 'redirect', { logoutNameID: nameId, ...(sessionIndex ? { sessionIndex } : {}) } as never) as { context: string };
    return context;
  }
}
