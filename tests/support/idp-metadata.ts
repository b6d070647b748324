// SAML 2.0 IdP metadata as IdPs publish it (decision 0042): one EntityDescriptor with an
// IDPSSODescriptor, a KeyDescriptor per signing certificate, and sign-on and sign-out services.
// Used by the metadata tests and by the e2e test IdP's https metadata endpoint.
export interface IdpMetadataOptions {
  entityId: string;
  ssoUrl: string;
  sloUrl?: string;
  certPems: string[];
  /** The binding of the sign-on service (default HTTP-Redirect, which the portal uses). */
  ssoBinding?: string;
  /** Extra text inside the document (comments, an encryption key) to test what is tolerated. */
  extra?: string;
}

const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const body = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

export function idpMetadataXml(o: IdpMetadataOptions): string {
  const keys = o.certPems
    .map((pem) => `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${body(pem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`)
    .join('\n    ');
  const redirect = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${esc(o.entityId)}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    ${keys}
    ${o.extra ?? ''}
    ${o.sloUrl ? `<md:SingleLogoutService Binding="${redirect}" Location="${esc(o.sloUrl)}"/>` : ''}
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${esc(o.ssoUrl)}/post"/>
    <md:SingleSignOnService Binding="${o.ssoBinding ?? redirect}" Location="${esc(o.ssoUrl)}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>
`;
}
