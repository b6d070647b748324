// Checks a SAML message before any XML parser sees it, then a structural check of the parsed
// document before node-saml verifies signatures. node-saml verifies the signature and hands back
// the signed assertion; everything here is what it leaves to its caller (docs/decisions/0015).
import { DOMParser } from '@xmldom/xmldom';
import { AppError } from '../errors';

/** Decoded SAML message size cap (a signed response with attributes is a few KB). */
export const SAML_XML_MAX_BYTES = 100 * 1024;

export class SamlRefusal extends AppError {
  constructor(
    readonly reason: string,
    /** With reason certificate-expired: when the (latest) stored certificate ended. */
    readonly expiredAt?: number,
  ) {
    super('saml-refused', { reason });
  }
}

const ALLOWED_SIGNATURE_ALGORITHMS = new Set([
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512',
]);
const ALLOWED_DIGEST_ALGORITHMS = new Set(['http://www.w3.org/2001/04/xmlenc#sha256', 'http://www.w3.org/2001/04/xmlenc#sha512']);

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';

/** Strict base64 of the form field into UTF-8 XML, with the lexical refusals. */
export function decodeSamlXml(base64: string): string {
  const compact = base64.replace(/[\r\n\t ]/g, '');
  if (compact.length === 0 || compact.length > Math.ceil((SAML_XML_MAX_BYTES * 4) / 3) + 4) throw new SamlRefusal('size');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) throw new SamlRefusal('encoding');
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > SAML_XML_MAX_BYTES) throw new SamlRefusal('size');
  const xml = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  refuseLexically(xml);
  return xml;
}

/**
 * DOCTYPE (entity expansion, external entities), processing instructions other than the XML
 * declaration, and comments (comment injection into NameID survives exclusive C14N signatures)
 * are refused before parsing. CDATA is refused too: no IdP needs it and it splits text nodes.
 */
export function refuseLexically(xml: string): void {
  const body = xml.replace(/^\uFEFF?\s*<\?xml\s[^?]*\?>/, '');
  if (/<!DOCTYPE/i.test(body) || /<!ENTITY/i.test(body)) throw new SamlRefusal('doctype');
  if (body.includes('<?')) throw new SamlRefusal('processing-instruction');
  if (body.includes('<!--')) throw new SamlRefusal('comment');
  if (body.includes('<![CDATA[')) throw new SamlRefusal('cdata');
}

export function parseStrict(xml: string): Document {
  const errors: string[] = [];
  const doc = new DOMParser({
    locator: {},
    errorHandler: { warning: () => undefined, error: (m: string) => errors.push(m), fatalError: (m: string) => errors.push(m) },
  }).parseFromString(xml, 'text/xml');
  if (errors.length || !doc?.documentElement) throw new SamlRefusal('malformed');
  return doc;
}

function elements(doc: Document, ns: string, name: string): Element[] {
  return Array.from(doc.getElementsByTagNameNS(ns, name));
}

function childElements(el: Element, ns: string, name: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === name) out.push(n as Element);
  }
  return out;
}

export interface ResponseShape {
  responseId: string;
  destination: string | null;
  inResponseTo: string | null;
  issuer: string | null;
  statusCode: string | null;
}

/**
 * The document must be one samlp:Response holding exactly one saml:Assertion as a direct child,
 * no encrypted assertion, one ID per element (duplicated IDs are the core of signature wrapping),
 * and only SHA-256/512 signatures anywhere.
 */
export function checkResponseShape(doc: Document): ResponseShape {
  const root = doc.documentElement!;
  if (root.namespaceURI !== SAMLP || root.localName !== 'Response') throw new SamlRefusal('not-a-response');
  for (const m of elements(doc, DSIG, 'SignatureMethod')) {
    if (!ALLOWED_SIGNATURE_ALGORITHMS.has(m.getAttribute('Algorithm') ?? '')) throw new SamlRefusal('weak-signature-algorithm');
  }
  for (const m of elements(doc, DSIG, 'DigestMethod')) {
    if (!ALLOWED_DIGEST_ALGORITHMS.has(m.getAttribute('Algorithm') ?? '')) throw new SamlRefusal('weak-digest-algorithm');
  }
  if (elements(doc, SAML, 'EncryptedAssertion').length > 0) throw new SamlRefusal('encrypted-assertion');
  const all = elements(doc, SAML, 'Assertion');
  const direct = childElements(root, SAML, 'Assertion');
  if (all.length !== 1 || direct.length !== 1) throw new SamlRefusal('assertion-count');
  const ids = new Set<string>();
  const walk = (el: Element) => {
    for (const attr of ['ID', 'Id', 'id']) {
      const v = el.getAttribute(attr);
      if (v) {
        if (ids.has(v)) throw new SamlRefusal('duplicate-id');
        ids.add(v);
      }
    }
    for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) walk(n as Element);
  };
  walk(root);
  const status = childElements(root, SAMLP, 'Status')[0];
  const code = status ? childElements(status, SAMLP, 'StatusCode')[0] : undefined;
  const issuer = childElements(root, SAML, 'Issuer')[0];
  return {
    responseId: root.getAttribute('ID') ?? '',
    destination: root.getAttribute('Destination') || null,
    inResponseTo: root.getAttribute('InResponseTo') || null,
    issuer: issuer?.textContent?.trim() ?? null,
    statusCode: code?.getAttribute('Value') ?? null,
  };
}

/** The status of a response without an assertion (errors from the IdP are usually unsigned). */
export function statusOf(doc: Document): string | null {
  const root = doc.documentElement!;
  if (root.namespaceURI !== SAMLP || root.localName !== 'Response') return null;
  const status = childElements(root, SAMLP, 'Status')[0];
  const code = status ? childElements(status, SAMLP, 'StatusCode')[0] : undefined;
  return code?.getAttribute('Value') ?? null;
}
