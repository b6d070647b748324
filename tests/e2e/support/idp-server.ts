// A small SAML identity provider on loopback for the SSO journeys (started by global-setup.ts):
// samlify in IdP mode (tests/support/saml-idp.ts) with a key pair made at start. Pages:
//   GET  /cert  the signing certificate (PEM) the admin pastes into the settings screen
//   GET  /sso   the IdP login page for the portal's AuthnRequest (an email field, Sign in)
//   POST /sso   signs a response for that email and posts it to the portal's ACS (auto-submit form)
//   GET  /slo   the page the portal's single logout lands on
// The same pages also answer over https on E2E_IDP_TLS_PORT (the self-signed certificate of
// tests/support/tls, which the e2e server trusts through NODE_EXTRA_CA_CERTS), with the metadata
// of decision 0042:
//   GET  /metadata           entity ID, https sign-on URL, the current and the next signing certificate
//   GET  /metadata-expiring  the same IdP with only a certificate that ends in 5 days
// and the sign-in form's "Signing key" picks which key signs (current, next, expiring).
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { inflateRawSync } from 'node:zlib';
import { makeKeyPair, TestIdp } from '../../support/saml-idp';
import { idpMetadataXml } from '../../support/idp-metadata';

const TLS_DIR = new URL('../../support/tls/', import.meta.url);
/** The certificate the e2e server trusts for the https test IdP (serverEnv NODE_EXTRA_CA_CERTS). */
export const IDP_TLS_CERT_FILE = new URL('loopback-cert.pem', TLS_DIR).pathname;

export const IDP_ENTITY_ID = 'https://idp.e2e.test/saml';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${esc(title)}</title></head><body><main><h1>${esc(title)}</h1>${body}</main></body></html>`;

/** The SP metadata, from the portal by its entity id URL (Node cannot resolve *.localhost: Host header). */
function fetchMetadata(entityId: string): Promise<string> {
  const u = new URL(entityId);
  return new Promise((resolve, reject) => {
    const r = httpRequest({ host: '127.0.0.1', port: u.port, path: u.pathname, headers: { host: u.host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`metadata ${res.statusCode}`))));
    });
    r.on('error', reject);
    r.end();
  });
}

function readBody(req: import('node:http').IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
  });
}

export async function startIdpServer(port: number, tlsPort: number): Promise<Server[]> {
  const [keys, nextKeys, expiringKeys] = await Promise.all([makeKeyPair('idp.e2e.test'), makeKeyPair('idp.e2e.test next', 730), makeKeyPair('idp.e2e.test expiring', 5)]);
  const base = `http://127.0.0.1:${port}`;
  const tlsBase = `https://127.0.0.1:${tlsPort}`;
  const idps = {
    current: new TestIdp({ entityId: IDP_ENTITY_ID, ssoUrl: `${base}/sso`, sloUrl: `${base}/slo`, keys }),
    next: new TestIdp({ entityId: IDP_ENTITY_ID, ssoUrl: `${base}/sso`, sloUrl: `${base}/slo`, keys: nextKeys }),
    expiring: new TestIdp({ entityId: IDP_ENTITY_ID, ssoUrl: `${base}/sso`, sloUrl: `${base}/slo`, keys: expiringKeys }),
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    const send = (status: number, body: string, type = 'text/html; charset=utf-8') => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    void (async () => {
      if (req.method === 'GET' && url.pathname === '/cert') return send(200, keys.certPem, 'text/plain');
      const metadataOf = (certPems: string[]) => idpMetadataXml({ entityId: IDP_ENTITY_ID, ssoUrl: `${tlsBase}/sso`, sloUrl: `${tlsBase}/slo`, certPems });
      if (req.method === 'GET' && url.pathname === '/metadata') return send(200, metadataOf([keys.certPem, nextKeys.certPem]), 'application/samlmetadata+xml');
      if (req.method === 'GET' && url.pathname === '/metadata-expiring') return send(200, metadataOf([expiringKeys.certPem]), 'application/samlmetadata+xml');
      if (req.method === 'GET' && url.pathname === '/sso') {
        const samlRequest = url.searchParams.get('SAMLRequest') ?? '';
        const relay = url.searchParams.get('RelayState') ?? '';
        return send(
          200,
          page(
            'Test IdP sign-in',
            `<form method="post" action="/sso"><label for="idp-email">IdP email</label> <input id="idp-email" name="email" type="email" autocomplete="username">` +
              ` <label for="idp-signer">Signing key</label> <select id="idp-signer" name="signer"><option value="current">current</option><option value="next">next</option><option value="expiring">expiring</option></select>` +
              `<input type="hidden" name="SAMLRequest" value="${esc(samlRequest)}"><input type="hidden" name="RelayState" value="${esc(relay)}">` +
              ` <button type="submit">IdP sign in</button></form>`,
          ),
        );
      }
      if (req.method === 'POST' && url.pathname === '/sso') {
        const form = await readBody(req);
        const xml = inflateRawSync(Buffer.from(form.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
        const id = /\sID="([^"]+)"/.exec(xml)?.[1];
        const issuer = /<(?:saml:)?Issuer[^>]*>([^<]+)<\/(?:saml:)?Issuer>/.exec(xml)?.[1];
        if (!id || !issuer) return send(400, page('Bad request', '<p>No AuthnRequest</p>'));
        const metadata = await fetchMetadata(issuer);
        const acs = /<AssertionConsumerService[^>]*Location="([^"]+)"/.exec(metadata)?.[1];
        const signer = form.get('signer');
        const idp = signer === 'next' || signer === 'expiring' ? idps[signer] : idps.current;
        const response = await idp.response(metadata, { inResponseTo: id, nameId: form.get('email') ?? '' });
        const relay = form.get('RelayState') ?? '';
        return send(
          200,
          page(
            'Returning to the portal',
            `<form method="post" action="${esc(acs ?? '')}"><input type="hidden" name="SAMLResponse" value="${esc(response)}">` +
              (relay ? `<input type="hidden" name="RelayState" value="${esc(relay)}">` : '') +
              `<button type="submit">Continue</button></form><script>document.forms[0].submit()</script>`,
          ),
        );
      }
      if (req.method === 'GET' && url.pathname === '/slo') return send(200, page('Signed out at the test IdP', `<p data-testid="idp-slo">${url.searchParams.has('SAMLRequest') ? 'LogoutRequest received' : 'no request'}</p>`));
      send(404, page('Not found', ''));
    })().catch((err: unknown) => send(500, page('IdP error', `<pre>${esc(String(err))}</pre>`)));
  };
  const server = createServer(handler);
  const tls = createHttpsServer({ cert: readFileSync(IDP_TLS_CERT_FILE), key: readFileSync(new URL('loopback-key.pem', TLS_DIR)) }, handler);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => tls.listen(tlsPort, '127.0.0.1', resolve));
  return [server, tls];
}
