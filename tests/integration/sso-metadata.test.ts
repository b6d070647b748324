// IdP metadata and certificates (issue 26, decision 0042). The fetch rules run against real https
// servers on loopback (the self-signed certificate of tests/support/tls, passed as `ca`) through
// the Node adapter: private and special-use addresses refused, also after resolution and after a
// redirect, size and time limits, redirects followed by hand. Then the admin call that reads
// metadata, rollover (an assertion signed by either of two stored certificates signs in), an
// expired certificate named as the reason, and the scheduled watch (daily re-read that applies a
// changed set, audits it and mails the admins; expiry warnings once per threshold, also when two
// runs race).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nodeOutbound } from '../../src/adapters/outbound-node';
import { readConfig } from '../../src/config';
import { activityLogs, outbox, samlCertificateWarnings, samlSettings, sessions, tenants, tenantUsers, users } from '../../src/db/schema';
import { fetchOutbound, OutboundRefused, refusedAddress, type OutboundLimits } from '../../src/domain/security/outbound';
import { tenantsWithExpiringCertificates, watchSsoCertificates } from '../../src/domain/sso/certificate-watch';
import { readIdpMetadata } from '../../src/domain/sso/metadata';
import { createHarness, type Harness } from '../support/harness';
import { idpMetadataXml } from '../support/idp-metadata';
import { makeKeyPair, TestIdp, type KeyPair } from '../support/saml-idp';

const CA = readFileSync(new URL('../support/tls/loopback-cert.pem', import.meta.url), 'utf8');
const KEY = readFileSync(new URL('../support/tls/loopback-key.pem', import.meta.url), 'utf8');
const ACME = 'acme.localhost:8787';
const IDP_ENTITY = 'https://idp.example.test/saml';
const SSO_USER = 'user@acme.test';
const DAY = 24 * 60 * 60_000;

type Handler = (path: string, res: import('node:http').ServerResponse) => void;
let server: Server;
let port: number;
let handler: Handler = (_p, res) => res.end('');
let keys: KeyPair;
let next: KeyPair;
let expiring: KeyPair;
let expired: KeyPair;

beforeAll(async () => {
  [keys, next, expiring, expired] = await Promise.all([makeKeyPair('idp.example.test'), makeKeyPair('idp.example.test next', 730), makeKeyPair('idp soon', 5), makeKeyPair('idp ended', -0.5)]);
  server = createServer({ key: KEY, cert: CA }, (req, res) => handler(req.url ?? '/', res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const LIMITS: OutboundLimits = { maxBytes: 64 * 1024, timeoutMs: 1500, maxRedirects: 3, allowLoopback: true };
const http = nodeOutbound({ ca: CA });

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof OutboundRefused) return e.problem;
    throw e;
  }
  return 'fetched';
}

describe('the outbound fetch rules', () => {
  it('fetches an https URL on loopback only when allowed (the positive control)', async () => {
    handler = (_p, res) => res.end('<ok/>');
    expect(await fetchOutbound(http, `https://127.0.0.1:${port}/m`, LIMITS)).toBe('<ok/>');
    expect(await refusal(fetchOutbound(http, `https://127.0.0.1:${port}/m`, { ...LIMITS, allowLoopback: false }))).toBe('address-refused');
    expect(await refusal(fetchOutbound(http, `https://localhost:${port}/m`, { ...LIMITS, allowLoopback: false }))).toBe('address-refused');
  });

  it('refuses plain http, credentials, and every private or special-use literal address', async () => {
    const strict = { ...LIMITS, allowLoopback: false };
    expect(await refusal(fetchOutbound(http, `http://127.0.0.1:${port}/m`, LIMITS))).toBe('https-only');
    expect(await refusal(fetchOutbound(http, `https://u:p@idp.example.com/m`, strict))).toBe('https-only');
    for (const host of ['10.0.0.5', '172.16.1.1', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '127.1', '2130706433', '[::1]', '[::ffff:10.0.0.1]', '[fe80::1]', '[fc00::1]', '224.0.0.1', '198.51.100.7']) {
      expect([host, await refusal(fetchOutbound(http, `https://${host}/m`, strict))]).toEqual([host, 'address-refused']);
    }
    for (const host of ['localhost', 'idp.localhost', 'metadata.internal', 'printer.local', 'intranet']) {
      expect([host, await refusal(fetchOutbound(http, `https://${host}/m`, strict))]).toEqual([host, 'address-refused']);
    }
    expect(refusedAddress('8.8.8.8', false)).toBe(false);
    expect(refusedAddress('2001:4860:4860::8888', false)).toBe(false);
  });

  it('checks the addresses a name resolves to, and connects to the address it checked', async () => {
    let lookups = 0;
    const resolving = (answer: string[]) =>
      nodeOutbound({
        ca: CA,
        resolve: (_host, cb) => {
          lookups++;
          cb(null, answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
        },
      });
    handler = (_p, res) => res.end('<pinned/>');
    // One private answer among public ones refuses the name (a rebinding split answer).
    expect(await refusal(fetchOutbound(resolving(['93.184.216.34', '10.0.0.7']), `https://metadata.example.test:${port}/m`, { ...LIMITS, allowLoopback: true }))).toBe('address-refused');
    expect(await refusal(fetchOutbound(resolving(['127.0.0.1']), `https://metadata.example.test:${port}/m`, { ...LIMITS, allowLoopback: false }))).toBe('address-refused');
    // Allowed: the name's certificate is checked, the socket goes to the resolved loopback address.
    lookups = 0;
    expect(await fetchOutbound(resolving(['127.0.0.1']), `https://metadata.example.test:${port}/m`, LIMITS)).toBe('<pinned/>');
    expect(lookups).toBe(1);
  });

  it('follows redirects by hand and checks each hop', async () => {
    handler = (path, res) => {
      const to: Record<string, string> = {
        '/to-private': 'https://10.1.2.3/metadata',
        '/to-metadata-ip': 'https://169.254.169.254/latest/meta-data/',
        '/to-http': `http://127.0.0.1:${port}/ok`,
        '/relative': '/ok',
        '/loop': '/loop',
      };
      if (to[path]) {
        res.writeHead(302, { location: to[path] });
        return res.end();
      }
      res.end(path === '/ok' ? '<ok/>' : '');
    };
    const strictAfterFirst = LIMITS;
    expect(await refusal(fetchOutbound(http, `https://127.0.0.1:${port}/to-private`, strictAfterFirst))).toBe('address-refused');
    expect(await refusal(fetchOutbound(http, `https://127.0.0.1:${port}/to-metadata-ip`, strictAfterFirst))).toBe('address-refused');
    expect(await refusal(fetchOutbound(http, `https://127.0.0.1:${port}/to-http`, strictAfterFirst))).toBe('https-only');
    expect(await refusal(fetchOutbound(http, `https://127.0.0.1:${port}/loop`, strictAfterFirst))).toBe('too-many-redirects');
    expect(await fetchOutbound(http, `https://127.0.0.1:${port}/relative`, strictAfterFirst)).toBe('<ok/>');
  });

  it('stops at the size limit, with or without a Content-Length, and at the time limit', async () => {
    handler = (path, res) => {
      if (path === '/big') return res.end('x'.repeat(LIMITS.maxBytes + 1));
      if (path === '/stream') {
        // Chunked, no length: an endless body is cut off at the limit.
        const timer = setInterval(() => res.write('y'.repeat(8192)), 1);
        res.on('close', () => clearInterval(timer));
        return;
      }
      if (path === '/slow') return void setTimeout(() => res.end('<late/>'), 5000).unref();
      if (path === '/trickle') {
        const timer = setInterval(() => res.write(' '), 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      if (path === '/error') {
        res.writeHead(500);
        return res.end('no');
      }
      res.end(''.padEnd(LIMITS.maxBytes, 'z'));
    };
    expect(await refusal(fetchOutbound(http, `https://127.0.0.1:${port}/big`, LIMITS))).toBe('too-large');
    expect(await refusal(fetchOutbound(http, `https://127.0.0.1:${port}/stream`, LIMITS))).toBe('too-large');
    expect((await fetchOutbound(http, `https://127.0.0.1:${port}/exact`, LIMITS)).length).toBe(LIMITS.maxBytes);
    const started = Date.now();
    expect(await refusal(fetchOutbound(http, `https://127.0.0.1:${port}/slow`, { ...LIMITS, timeoutMs: 300 }))).toBe('timeout');
    expect(await refusal(fetchOutbound(http, `https://127.0.0.1:${port}/trickle`, { ...LIMITS, timeoutMs: 400 }))).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await refusal(fetchOutbound(http, `https://127.0.0.1:${port}/error`, LIMITS))).toBe('http-status');
  });
});

describe('the development switch', () => {
  it('DEV_SSO_METADATA_LOOPBACK is honoured only with DEV_MODE', () => {
    const production = { SMTP_URL: 'smtps://mail.example.com', LINK_SIGNING_KEY: 'k'.repeat(32), DATA_ENCRYPTION_KEY: 'd'.repeat(32) };
    expect(readConfig({ ...production, DEV_SSO_METADATA_LOOPBACK: 'true' }).DEV_SSO_METADATA_LOOPBACK).toBe(false);
    expect(readConfig({ ...production, DEV_MODE: 'true', DEV_SSO_METADATA_LOOPBACK: 'true' }).DEV_SSO_METADATA_LOOPBACK).toBe(true);
  });
});

describe('reading metadata', () => {
  it('takes the entity ID, the Redirect sign-on and sign-out URLs and every signing certificate', () => {
    const r = readIdpMetadata(idpMetadataXml({ entityId: IDP_ENTITY, ssoUrl: 'https://idp.example.test/sso', sloUrl: 'https://idp.example.test/slo', certPems: [keys.certPem, next.certPem], extra: '<!-- a comment ADFS leaves -->' }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.metadata).toMatchObject({ entityId: IDP_ENTITY, ssoUrl: 'https://idp.example.test/sso', sloUrl: 'https://idp.example.test/slo' });
    expect(r.metadata.certificates).toHaveLength(2);
  });

  it('refuses what is not one IdP with a usable binding, and DOCTYPEs', () => {
    const base = { entityId: IDP_ENTITY, ssoUrl: 'https://idp.example.test/sso', certPems: [keys.certPem] };
    const problem = (xml: string) => {
      const r = readIdpMetadata(xml);
      return r.ok ? 'ok' : r.problem;
    };
    expect(problem(idpMetadataXml({ ...base, ssoBinding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST' }))).toBe('no-redirect-binding');
    expect(problem(idpMetadataXml({ ...base, ssoUrl: 'http://idp.example.test/sso' }))).toBe('bad-url');
    expect(problem(idpMetadataXml({ ...base, certPems: [] }))).toBe('no-certificate');
    expect(problem(idpMetadataXml(base).replace('<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'))).toBe('malformed');
    expect(problem('<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">' + [1, 2].map(() => idpMetadataXml(base).replace(/<\?xml[^>]*>/, '')).join('') + '</md:EntitiesDescriptor>')).toBe('several-idps');
    expect(problem('<html/>')).toBe('not-metadata');
    expect(problem('not xml <')).toBe('malformed');
  });
});

describe('SSO with metadata and several certificates', () => {
  let h: Harness;
  let metadataServed: string;

  async function adminClient(email = 'admin@acme.test') {
    const b = h.client(ACME, { ip: '133.242.10.20' });
    expect((await b.login(email)).body.message).toBe('success');
    return b;
  }

  beforeEach(async () => {
    h = await createHarness({ DEV_SSO_METADATA_LOOPBACK: 'true' });
    h.deps.outbound = nodeOutbound({ ca: CA });
    h.clock.t = Date.now();
    metadataServed = idpMetadataXml({ entityId: IDP_ENTITY, ssoUrl: 'https://idp.example.test/sso', sloUrl: 'https://idp.example.test/slo', certPems: [keys.certPem] });
    handler = (path, res) => {
      if (path === '/metadata') return res.end(metadataServed);
      res.writeHead(404);
      res.end();
    };
  });
  afterEach(() => h.close());

  it('an admin reads metadata by URL or XML into values to review; nothing is stored until saved', async () => {
    const admin = await adminClient();
    const byUrl = await admin.post('/accounts/api/admin/saml/metadata', { url: `https://127.0.0.1:${port}/metadata` });
    expect(byUrl.status).toBe(200);
    expect(byUrl.body.metadata).toMatchObject({ idp_entity_id: IDP_ENTITY, idp_sso_url: 'https://idp.example.test/sso', idp_slo_url: 'https://idp.example.test/slo', idp_metadata_url: `https://127.0.0.1:${port}/metadata` });
    expect(byUrl.body.metadata.certificates).toHaveLength(1);
    expect(await h.deps.db.select().from(samlSettings).all()).toHaveLength(0);
    const byXml = await admin.post('/accounts/api/admin/saml/metadata', { xml: metadataServed });
    expect(byXml.status).toBe(200);
    expect(byXml.body.metadata.idp_metadata_url).toBeNull();
    // Refusals land on the field the admin used.
    const bad = await admin.post('/accounts/api/admin/saml/metadata', { url: 'https://10.0.0.1/metadata' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['metadataUrl']);
    expect((await admin.post('/accounts/api/admin/saml/metadata', { url: `http://127.0.0.1:${port}/metadata` })).status).toBe(422);
    // Saving a metadata URL the daily job could never read is refused on that field.
    const savePrivate = await admin.post('/accounts/api/admin/saml', { idpEntityId: IDP_ENTITY, idpSsoUrl: 'https://idp.example.test/sso', idpCertificate: keys.certPem, idpMetadataUrl: 'https://192.168.1.10/metadata' });
    expect(savePrivate.status).toBe(422);
    expect(Object.keys(savePrivate.body.errors)).toEqual(['idpMetadataUrl']);
    const xmlBad = await admin.post('/accounts/api/admin/saml/metadata', { xml: '<x/>' });
    expect(Object.keys(xmlBad.body.errors)).toEqual(['metadataXml']);
    // Large pasted metadata passes the body limit (the JSON limit is 64 KB).
    const padded = metadataServed.replace('<md:IDPSSODescriptor', `<!-- ${'p'.repeat(100_000)} --><md:IDPSSODescriptor`);
    expect((await admin.post('/accounts/api/admin/saml/metadata', { xml: padded })).status).toBe(200);
  });

  it('metadata URL reads are limited per tenant (20 in 10 minutes), also in parallel; XML is not', async () => {
    const admin = await adminClient();
    const results = await Promise.all(Array.from({ length: 25 }, () => admin.post('/accounts/api/admin/saml/metadata', { url: `https://127.0.0.1:${port}/metadata` })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(20);
    expect(results.filter((r) => r.status === 429)).toHaveLength(5);
    expect((await admin.post('/accounts/api/admin/saml/metadata', { xml: metadataServed })).status).toBe(200);
    h.clock.advance(10 * 60_000 + 1);
    expect((await admin.post('/accounts/api/admin/saml/metadata', { url: `https://127.0.0.1:${port}/metadata` })).status).toBe(200);
  });

  it('only an admin of the tenant may read metadata (a member, another tenant`s admin, the signed out)', async () => {
    const member = h.client(ACME, { ip: '133.242.10.21', otherBrowser: true });
    expect((await member.login(SSO_USER)).body.message).toBe('success');
    expect((await member.post('/accounts/api/admin/saml/metadata', { xml: metadataServed })).status).toBe(403);
    const outsider = h.client('initech.localhost:8787', { ip: '133.242.10.22', otherBrowser: true });
    expect((await outsider.login('admin@initech.test')).body.message).toBe('success');
    const cross = await outsider.request('POST', '/accounts/api/admin/saml/metadata', { json: { xml: metadataServed }, headers: { host: ACME } });
    expect([401, 403, 404]).toContain(cross.status);
    expect((await h.client(ACME, { otherBrowser: true }).post('/accounts/api/admin/saml/metadata', { xml: metadataServed })).status).toBe(401);
  });

  async function configure(certPems: string[], metadataUrl: string | null = null) {
    const admin = await adminClient();
    const saved = await admin.post('/accounts/api/admin/saml', { idpEntityId: IDP_ENTITY, idpSsoUrl: 'https://idp.example.test/sso', idpSloUrl: '', idpCertificate: certPems.join('\n'), idpMetadataUrl: metadataUrl ?? '' });
    expect(saved.status).toBe(200);
    expect((await admin.patch('/accounts/api/admin/saml/configure-idp-status', { isIdpConfigured: true })).status).toBe(200);
    const user = (await h.deps.db.select().from(users).where(eq(users.email, SSO_USER)).get())!;
    await h.deps.db.update(tenantUsers).set({ isSsoEnabled: true }).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.userId, user.id)));
    return saved.body;
  }

  async function signIn(signer: KeyPair) {
    const b = h.client(ACME, { otherBrowser: true });
    const r = await b.get(`/accounts/api/saml2/all/login?RelayState=${encodeURIComponent('/accounts/my-account')}`);
    const req = TestIdp.requestOf(r.headers.get('location')!);
    const spMetadata = (await h.client(ACME).get('/accounts/api/saml2/all/metadata')).text;
    const idp = new TestIdp({ entityId: IDP_ENTITY, ssoUrl: 'https://idp.example.test/sso', sloUrl: 'https://idp.example.test/slo', keys: signer });
    const form = new URLSearchParams({ SAMLResponse: await idp.response(spMetadata, { inResponseTo: req.id, nameId: SSO_USER }) });
    return b.request('POST', '/accounts/api/saml2/all/acs', { raw: true, body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.example.test' } });
  }

  it('rollover: with two stored certificates an assertion signed by either signs in; a third key does not', async () => {
    const view = await configure([keys.certPem, next.certPem]);
    expect(view.saml_setting.certificates).toHaveLength(2);
    // The date shown is when SSO stops working: the later certificate's end.
    expect(Date.parse(view.saml_setting.certificate_expires_at)).toBeGreaterThan(Date.now() + 700 * DAY);
    expect((await signIn(keys)).status).toBe(303);
    expect((await signIn(next)).status).toBe(303);
    const attacker = await makeKeyPair('attacker');
    expect((await signIn(attacker)).status).toBe(403);
    expect(await h.deps.db.select().from(sessions).where(eq(sessions.authMethod, 'sso')).all()).toHaveLength(2);
  });

  it('an expired certificate is refused on save, and named as the reason when SSO fails', async () => {
    const admin = await adminClient();
    const r = await admin.post('/accounts/api/admin/saml', { idpEntityId: IDP_ENTITY, idpSsoUrl: 'https://idp.example.test/sso', idpCertificate: `${keys.certPem}${expired.certPem}` });
    expect(r.status).toBe(422);
    await configure([keys.certPem]);
    // The stored certificate ends (as it would overnight): the IdP still signs with it.
    await h.deps.db.update(samlSettings).set({ idpX509Cert: expired.certPem });
    const failed = await signIn(expired);
    expect(failed.status).toBe(403);
    expect(failed.text).toContain('data-testid="sso-certificate-expired"');
    const log = (await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'login.sso.refused')).all()).at(-1)!;
    expect(log.details).toMatchObject({ reason: 'certificate-expired' });
  });

  it('the SP metadata names the NameID format and downloads as a file', async () => {
    const r = await h.client(ACME).request('GET', '/accounts/api/saml2/all/metadata?download', { raw: true });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="acme-sp-metadata.xml"');
    expect(r.text).toContain('<NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</NameIDFormat>');
    expect(readIdpMetadata(r.text)).toEqual({ ok: false, problem: 'no-idp' });
  });

  it('the daily watch applies a changed certificate set from the metadata URL, audits it and mails the admins', async () => {
    const url = `https://127.0.0.1:${port}/metadata`;
    await configure([keys.certPem], url);
    // Within a day of the save: not re-read.
    expect((await watchSsoCertificates(h.deps)).metadataRead).toBe(0);
    metadataServed = idpMetadataXml({ entityId: IDP_ENTITY, ssoUrl: 'https://idp.example.test/sso', certPems: [keys.certPem, next.certPem] });
    h.clock.advance(DAY);
    const [a, b] = await Promise.all([watchSsoCertificates(h.deps), watchSsoCertificates(h.deps)]);
    expect(a.certificatesChanged + b.certificatesChanged).toBe(1);
    const stored = (await h.deps.db.select().from(samlSettings).get())!;
    expect(stored.idpX509Cert.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(stored.metadataError).toBeNull();
    expect(await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'sso.certificates-updated-from-metadata')).all()).toHaveLength(1);
    const mails = await h.deps.db.select().from(outbox).where(eq(outbox.recipient, 'admin@acme.test')).all();
    expect(mails.filter((m) => m.subject?.includes('SSO'))).toHaveLength(1);
    // Both keys now sign in (the IdP may switch at any moment). The assertion's times are the
    // real clock's (node-saml reads it), so the harness clock goes back to it for this.
    const later = h.clock.t;
    h.clock.t = Date.now();
    expect((await signIn(next)).status).toBe(303);
    h.clock.t = later;
    // A failing URL is recorded, and the certificates stay.
    metadataServed = '<broken';
    h.clock.advance(DAY);
    expect((await watchSsoCertificates(h.deps)).metadataFailed).toBe(1);
    const after = (await h.deps.db.select().from(samlSettings).get())!;
    expect(after.metadataError).toBe('malformed');
    expect(after.idpX509Cert).toBe(stored.idpX509Cert);
  });

  it('warns the admins 30, 7 and 1 days before the last certificate ends, once per threshold even when runs race', async () => {
    await configure([expiring.certPem]);
    const tenant = (await h.deps.db.select().from(tenants).where(eq(tenants.id, 1)).get())!;
    expect(tenant.ssoCertificateExpiresAt).not.toBeNull();
    const runs = await Promise.all([watchSsoCertificates(h.deps), watchSsoCertificates(h.deps), watchSsoCertificates(h.deps)]);
    expect(runs.reduce((n, r) => n + r.warningsSent, 0)).toBe(1);
    expect(await h.deps.db.select().from(samlCertificateWarnings).all()).toMatchObject([{ tenantId: 1, thresholdDays: 7 }]);
    const warned = (await h.deps.db.select().from(outbox).where(eq(outbox.recipient, 'admin@acme.test')).all()).filter((m) => m.body.includes('SHA-256'));
    expect(warned).toHaveLength(1);
    // The next threshold sends again, once.
    h.clock.advance(4.5 * DAY);
    expect((await watchSsoCertificates(h.deps)).warningsSent).toBe(1);
    expect((await watchSsoCertificates(h.deps)).warningsSent).toBe(0);
    // Only members who administer this tenant hear of it.
    const others = await h.deps.db.select().from(outbox).where(eq(outbox.recipient, SSO_USER)).all();
    expect(others.filter((m) => m.body.includes('SHA-256'))).toHaveLength(0);
    // The operators' list names the tenant; a successor certificate stops the warnings.
    expect((await tenantsWithExpiringCertificates(h.deps, 30)).map((t) => t.initialSubdomain)).toEqual(['acme']);
    expect(await tenantsWithExpiringCertificates(h.deps, 0)).toEqual([]);
  });

  it('the admin screens carry a banner while the last certificate ends within 30 days', async () => {
    await configure([expiring.certPem]);
    const admin = await adminClient();
    const page = await admin.get('/accounts/admin/users');
    expect(page.text).toContain('data-testid="sso-certificate-banner"');
    await configure([expiring.certPem, next.certPem]);
    expect((await admin.get('/accounts/admin/users')).text).not.toContain('data-testid="sso-certificate-banner"');
  });
});

