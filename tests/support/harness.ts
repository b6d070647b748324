// Integration harness: createApp(testDeps) over libSQL in memory with the real migrations and the
// demo data, a controllable clock, and a per-host cookie jar. Requests go through app.request().
import { fileURLToPath } from 'node:url';
import { loadArgon2Node } from '../../src/adapters/argon2-node';
import { migrateLibsql, openLibsql } from '../../src/adapters/db-libsql';
import { outboxMailer } from '../../src/adapters/mail-outbox';
import { outboxSms } from '../../src/adapters/sms-outbox';
import { createApp } from '../../src/app';
import { readConfig } from '../../src/config';
import { seedDemo } from '../../src/db/seed';
import type { Deps, RuntimePort } from '../../src/deps';
import { createPasswordHasher, type PasswordHasher } from '../../src/domain/auth/passwords';

const migrations = fileURLToPath(new URL('../../migrations', import.meta.url));
// One hasher (one WebAssembly instance) for the whole test process.
let sharedHasher: PasswordHasher | undefined;

export const TEST_IP_HEADER = 'x-test-client-ip';

/** Test runtime: the client address comes from a test-only header, defaulting to a public one. */
const testRuntime: RuntimePort = {
  clientIp: (req) => req.headers.get(TEST_IP_HEADER) ?? '203.0.113.10',
  isHttps: (req) => new URL(req.url).protocol === 'https:',
  geo: () => ({ countryCode: 'JP', country: 'Japan', city: 'Tokyo', state: 'Tokyo' }),
};

export interface Harness {
  deps: Deps;
  app: ReturnType<typeof createApp>;
  clock: { t: number; now(): number; advance(ms: number): void };
  client(host: string, opts?: { https?: boolean; ip?: string }): TestClient;
  close(): void;
}

export async function createHarness(env: Record<string, string> = {}): Promise<Harness> {
  const config = readConfig({ DEV_MODE: 'true', ...env });
  const { db, client } = openLibsql(':memory:');
  await migrateLibsql(db, migrations);
  const clock = {
    t: Date.UTC(2026, 10, 21, 0, 0, 0),
    now() {
      return this.t;
    },
    advance(ms: number) {
      this.t += ms;
    },
  };
  const passwords = (sharedHasher ??= createPasswordHasher(loadArgon2Node));
  await seedDemo(db, passwords, clock.now(), config.DATA_ENCRYPTION_KEY);
  const deps: Deps = { db, config, clock, passwords, mailer: outboxMailer(db, () => clock.now()), sms: outboxSms(db, () => clock.now()), runtime: testRuntime };
  const app = createApp(deps);
  return {
    deps,
    app,
    clock,
    client: (host, opts) => new TestClient(app, host, opts?.https ?? false, opts?.ip),
    close: () => client.close(),
  };
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** A browser on one host: keeps its cookies, sends the API headers a real island sends. */
export class TestClient {
  cookies = new Map<string, string>();
  constructor(
    private app: ReturnType<typeof createApp>,
    readonly host: string,
    private https: boolean,
    public ip?: string,
  ) {}

  get origin() {
    return `${this.https ? 'https' : 'http'}://${this.host}`;
  }

  async request(
    method: string,
    path: string,
    opts: { json?: unknown; headers?: Record<string, string>; body?: string; raw?: boolean } = {},
  ): Promise<TestResponse> {
    const headers: Record<string, string> = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36' };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
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
      if (!v || /max-age=0|expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(k);
      else this.cookies.set(k, v);
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
