// IdP metadata (SAML 2.0 metadata, decision 0042): the entity ID, the sign-on and sign-out URLs of
// the binding this portal uses (HTTP-Redirect: node-saml sends the AuthnRequest and LogoutRequest
// that way) and every signing certificate. Parsed by the same hardened parser as the ACS's
// messages, after the same lexical refusals (no DOCTYPE or entity, no processing instruction).
import { ValidationError, text } from '../errors';
import { parseCertificates, type TrustedCertificate } from './certificates';
import { parseStrict, SamlRefusal } from './xml-guard';

/** Metadata larger than this is refused (Entra's is ~25 KB; federation aggregates are not IdPs). */
export const METADATA_MAX_BYTES = 512 * 1024;

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  sloUrl: string | null;
  certificates: TrustedCertificate[];
}

/** Why a metadata document was refused: a key under sso.metadata.errors. */
export type MetadataProblem =
  | 'malformed'
  | 'not-metadata'
  | 'several-idps'
  | 'no-idp'
  | 'no-redirect-binding'
  | 'bad-url'
  | 'no-certificate'
  | 'bad-certificate'
  | 'too-large'
  | 'https-only'
  | 'address-refused'
  | 'unreachable'
  | 'timeout'
  | 'http-status'
  | 'too-many-redirects';

export function metadataRefusal(field: 'metadataUrl' | 'metadataXml', problem: MetadataProblem): ValidationError {
  return new ValidationError({ [field]: [text(`sso.metadata.errors.${problem}`)] });
}

class Refused extends Error {
  constructor(readonly problem: MetadataProblem) {
    super(problem);
  }
}

function children(el: Element, ns: string, name: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === name) out.push(n as Element);
  }
  return out;
}

function httpsLocation(el: Element | undefined): string | null {
  const v = el?.getAttribute('Location')?.trim();
  if (!v) return null;
  try {
    const u = new URL(v);
    if (u.protocol !== 'https:' || u.username || u.password || v.length > 1024) throw new Refused('bad-url');
    return v;
  } catch (e) {
    if (e instanceof Refused) throw e;
    throw new Refused('bad-url');
  }
}

function parse(xml: string): IdpMetadata {
  if (new TextEncoder().encode(xml).length > METADATA_MAX_BYTES) throw new Refused('too-large');
  // The ACS's lexical refusals, except comments: metadata is not signed-over content we trust
  // piecewise, and IdPs (ADFS, Keycloak) put comments in it.
  const body = xml.replace(/^\uFEFF?\s*<\?xml\s[^?]*\?>/, '');
  if (/<!DOCTYPE/i.test(body) || /<!ENTITY/i.test(body) || body.includes('<?')) throw new Refused('malformed');
  let doc: Document;
  try {
    doc = parseStrict(xml);
  } catch (e) {
    if (e instanceof SamlRefusal) throw new Refused('malformed');
    throw e;
  }
  const root = doc.documentElement!;
  if (root.namespaceURI !== MD || !['EntityDescriptor', 'EntitiesDescriptor'].includes(root.localName)) throw new Refused('not-metadata');
  const entities = root.localName === 'EntityDescriptor' ? [root] : children(root, MD, 'EntityDescriptor');
  const idps = entities.flatMap((e) => children(e, MD, 'IDPSSODescriptor').map((d) => ({ entity: e, d })));
  if (idps.length === 0) throw new Refused('no-idp');
  if (idps.length > 1) throw new Refused('several-idps');
  const { entity, d } = idps[0]!;
  const entityId = entity.getAttribute('entityID')?.trim() ?? '';
  if (!entityId || entityId.length > 1024 || /\s/.test(entityId)) throw new Refused('not-metadata');
  const sso = children(d, MD, 'SingleSignOnService').find((s) => s.getAttribute('Binding') === REDIRECT);
  const ssoUrl = httpsLocation(sso);
  if (!ssoUrl) throw new Refused('no-redirect-binding');
  const slo = children(d, MD, 'SingleLogoutService').find((s) => s.getAttribute('Binding') === REDIRECT);
  const sloUrl = httpsLocation(slo);
  const pems: string[] = [];
  for (const kd of children(d, MD, 'KeyDescriptor')) {
    const use = kd.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const ki of children(kd, DSIG, 'KeyInfo'))
      for (const xd of children(ki, DSIG, 'X509Data'))
        for (const xc of children(xd, DSIG, 'X509Certificate')) pems.push(`-----BEGIN CERTIFICATE-----\n${(xc.textContent ?? '').replace(/\s+/g, '')}\n-----END CERTIFICATE-----\n`);
  }
  if (pems.length === 0) throw new Refused('no-certificate');
  const certificates = parseCertificates(pems.join(''));
  if (!certificates) throw new Refused('bad-certificate');
  return { entityId, ssoUrl, sloUrl, certificates };
}

/** The IdP's values from its metadata, or the problem a person is shown. */
export function readIdpMetadata(xml: string): { ok: true; metadata: IdpMetadata } | { ok: false; problem: MetadataProblem } {
  try {
    return { ok: true, metadata: parse(xml) };
  } catch (e) {
    if (e instanceof Refused) return { ok: false, problem: e.problem };
    throw e;
  }
}
