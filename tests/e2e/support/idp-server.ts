// A small SAML identity provider on loopback for the SSO journeys (started by global-setup.ts):
// samlify in IdP mode (tests/support/saml-idp.ts) with a key pair made at start. Pages:
//   GET  /cert  the signing certificate (PEM) the admin pastes into the settings screen
//   GET  /sso   the IdP login page for the portal's AuthnRequest (an email field, Sign in)
//   POST /sso   signs a response for that email and posts it to the portal's ACS (auto-submit form)
//   GET  /slo   the page the portal's single logout lands on
import { createServer, request as httpRequest, type Server } from 'node:http';
import { inflateRawSync } from 'node:zlib';
import { makeKeyPair, TestIdp } from '../../support/saml-idp';

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

export async function startIdpServer(port: number): Promise<Server> {
  const keys = await makeKeyPair('idp.e2e.test');
  const base = `http://127.0.0.1:${port}`;
  const idp = new TestIdp({ entityId: IDP_ENTITY_ID, ssoUrl: `${base}/sso`, sloUrl: `${base}/slo`, keys });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    const send = (status: number, body: string, type = 'text/html; charset=utf-8') => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    void (async () => {
      if (req.method === 'GET' && url.pathname === '/cert') return send(200, keys.certPem, 'text/plain');
      if (req.method === 'GET' && url.pathname === '/sso') {
        const samlRequest = url.searchParams.get('SAMLRequest') ?? '';
        const relay = url.searchParams.get('RelayState') ?? '';
        return send(
          200,
          page(
            'Test IdP sign-in',
            `<form method="post" action="/sso"><label for="idp-email">IdP email</label> <input id="idp-email" name="email" type="email" autocomplete="username">` +
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
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}
