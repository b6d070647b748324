// Integration harness: createApp(testDeps) over a libSQL file of its own (a copy of a template
// made once with the real migrations and the demo data), a controllable clock, and a per-host
// cookie jar. Requests go through app.request().
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadArgon2Node } from '../../src/adapters/argon2-node';
import { migrateLibsql, openLibsql } from '../../src/adapters/db-libsql';
import { outboxMailer } from '../../src/adapters/mail-outbox';
import { outboxSms } from '../../src/adapters/sms-outbox';
import { createApp } from '../../src/app';
import { readConfig } from '../../src/config';
import { seedDemo } from '../../src/db/seed';
import { demoSeedTools } from '../../src/domain/operations/demo-data';
import type { Deps, PasswordHasher, RuntimePort } from '../../src/deps';
import { createPasswordHasher } from '../../src/domain/security/password-hashing';

const migrations = fileURLToPath(new URL('../../migrations', import.meta.url));
// One hasher (one WebAssembly instance) for the whole test process.
let sharedHasher: PasswordHasher | undefined;

export const TEST_IP_HEADER = 'x-test-client-ip';

/** Test runtime: the client address comes from a test-only header, defaulting to a public one. */
const testRuntime: RuntimePort = {
  clientIp: (req) => req.headers.get(TEST_IP_HEADER) ?? '203.0.113.10',
  isHttps: (req) => req.url.startsWith('https:'),
  header: (req, _env, name) => req.headers.get(name) ?? undefined,
  requestId: () => null,
  geo: () => ({ countryCode: 'JP', country: 'Japan', city: 'Tokyo', state: 'Tokyo' }),
};

export interface Harness {
  deps: Deps;
  app: ReturnType<typeof createApp>;
  clock: { t: number; now(): number; advance(ms: number): void };
  /** Every statement sent so far, in order (clear it to count a request's). */
  queries: string[];
  /** A client on `host`; clients share domain cookies (one browser) unless `otherBrowser`. */
  client(host: string, opts?: { https?: boolean; ip?: string; otherBrowser?: boolean }): TestClient;
  /** A client on `host` signed in with the demo password; fails the test when the login does not succeed. */
  signedIn(email: string, host: string, opts?: { https?: boolean; ip?: string; otherBrowser?: boolean }): Promise<TestClient>;
  /**
   * Another server process on the same database file (its own connection, app and per-process
   * caches, as with WEB_CONCURRENCY > 1); its clients share this browser's domain cookies.
   */
  otherProcess(): Promise<{ deps: Deps; app: ReturnType<typeof createApp>; client(host: string, opts?: { https?: boolean; ip?: string }): TestClient }>;
  close(): void;
}

/** The clock every harness starts at (the demo data is written at this instant). */
const START = Date.UTC(2026, 10, 21, 0, 0, 0);

// Migrating and seeding take most of a harness's start; they are done once per process and data
// key into a template file, which each harness copies (the real migrations and demo data still).
const workDir = mkdtempSync(join(tmpdir(), 'portal-harness-'));
process.on('exit', () => rmSync(workDir, { recursive: true, force: true }));
const templates = new Map<string, Promise<string>>();
let copies = 0;

function template(dataKey: string): Promise<string> {
  let made = templates.get(dataKey);
  if (!made) {
    made = (async () => {
      const file = join(workDir, `template-${templates.size}.db`);
      const { db, client } = openLibsql(`file:${file}`);
      await migrateLibsql(db, migrations);
      await seedDemo(db, demoSeedTools((sharedHasher ??= createPasswordHasher(loadArgon2Node)), dataKey), START);
      // One self-contained file to copy: no write-ahead log beside it.
      await db.run('PRAGMA journal_mode = DELETE');
      client.close();
      return file;
    })();
    templates.set(dataKey, made);
  }
  return made;
}

export async function createHarness(env: Record<string, string> = {}): Promise<Harness> {
  const config = readConfig({ DEV_MODE: 'true', ...env });
  const file = join(workDir, `h${++copies}.db`);
  copyFileSync(await template(config.DATA_ENCRYPTION_KEY), file);
  const queries: string[] = [];
  const { db, client } = openLibsql(`file:${file}`, { onQuery: (sql) => queries.push(sql) });
  await db.run('PRAGMA foreign_keys = ON');
  // A throwaway copy: nothing to make durable.
  await db.run('PRAGMA synchronous = OFF');
  const clock = {
    t: START,
    now() {
      return this.t;
    },
    advance(ms: number) {
      this.t += ms;
    },
  };
  const passwords = (sharedHasher ??= createPasswordHasher(loadArgon2Node));
  const deps: Deps = { db, config, clock, passwords, mailer: outboxMailer(db, () => clock.now()), sms: outboxSms(db, () => clock.now()), runtime: testRuntime };
  const app = createApp(deps);
  // Cookies with a Domain attribute reach every host under it, as in a browser: one jar per harness.
  const domainJar: DomainJar = new Map();
  const others: { close(): void }[] = [];
  const browser = (host: string, opts?: { https?: boolean; ip?: string; otherBrowser?: boolean }) =>
    new TestClient(app, host, opts?.https ?? false, opts?.ip, opts?.otherBrowser ? new Map() : domainJar);
  return {
    deps,
    app,
    clock,
    queries,
    client: browser,
    async signedIn(email, host, opts) {
      const b = browser(host, opts);
      const r = await b.login(email);
      if (r.status !== 200 || r.body?.message !== 'success') throw new Error(`login of ${email} on ${host}: ${r.status} ${r.text.slice(0, 200)}`);
      return b;
    },
    async otherProcess() {
      const second = openLibsql(`file:${file}`);
      others.push(second.client);
      await second.db.run('PRAGMA foreign_keys = ON');
      const deps2: Deps = { ...deps, db: second.db, mailer: outboxMailer(second.db, () => clock.now()), sms: outboxSms(second.db, () => clock.now()) };
      const app2 = createApp(deps2);
      return { deps: deps2, app: app2, client: (host: string, opts?: { https?: boolean; ip?: string }) => new TestClient(app2, host, opts?.https ?? false, opts?.ip, domainJar) };
    },
    close: () => {
      for (const o of others) o.close();
      client.close();
      rmSync(file, { force: true });
    },
  };
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** Domain cookies by domain, then name (shared by the clients of one harness: one browser). */
type DomainJar = Map<string, Map<string, string>>;

/** A browser on one host: keeps its cookies, sends the API headers a real island sends. */
export class TestClient {
  cookies = new Map<string, string>();
  constructor(
    private app: ReturnType<typeof createApp>,
    readonly host: string,
    private https: boolean,
    public ip?: string,
    /** Pass a new Map to make this client a browser of its own. */
    public domainJar: DomainJar = new Map(),
  ) {}

  private hostname() {
    return this.host.replace(/:\d+$/, '');
  }

  private domainCookies(): [string, string][] {
    const h = this.hostname();
    return [...this.domainJar].filter(([d]) => h === d || h.endsWith(`.${d}`)).flatMap(([, jar]) => [...jar]);
  }

  get origin() {
    return `${this.https ? 'https' : 'http'}://${this.host}`;
  }

  async request(
    method: string,
    path: string,
    opts: { json?: unknown; headers?: Record<string, string>; body?: string; raw?: boolean } = {},
  ): Promise<TestResponse> {
    const headers: Record<string, string> = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36' };
    const sent = [...this.domainCookies(), ...this.cookies];
    if (sent.length) headers.cookie = sent.map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.ip) headers[TEST_IP_HEADER] = this.ip;
    const isApi = path.includes('/api/');
    if (isApi && !opts.raw) {
      headers['x-requested-with'] = 'XMLHttpRequest';
      headers.origin = this.origin;
    }
    let body: string | undefined = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] = 'application/json';
    }
    const res = await this.app.request(`${this.origin}${path}`, { method, headers: { ...headers, ...opts.headers }, body });
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const i = pair.indexOf('=');
      const [k, v] = [pair.slice(0, i), pair.slice(i + 1)];
      const domain = /;\s*domain=\.?([^;]+)/i.exec(c)?.[1]?.toLowerCase();
      const jar = domain ? (this.domainJar.get(domain) ?? this.domainJar.set(domain, new Map()).get(domain)!) : this.cookies;
      if (!v || /max-age=0|expires=Thu, 01 Jan 1970/i.test(c)) jar.delete(k);
      else jar.set(k, v);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* html or empty */
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  get(path: string, opts?: Parameters<TestClient['request']>[2]) {
    return this.request('GET', path, opts);
  }
  post(path: string, json?: unknown, opts?: Parameters<TestClient['request']>[2]) {
    return this.request('POST', path, { ...opts, json });
  }
  patch(path: string, json?: unknown) {
    return this.request('PATCH', path, { json });
  }

  login(email: string, password = 'Portal-Demo-2026!', remember = false) {
    return this.post('/accounts/api/v2/login', { email, password, remember });
  }
}
