// The operators' command-line tool: `npm run portal -- <command> [options]` (README "Operating:
// the CLI"). Everything except `token` goes through the operator API of a running portal, local
// or deployed; `token` is local administration and writes the database directly (a libSQL URL or
// a D1 database through wrangler), because a token cannot be created with the API it unlocks.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { SqlArg } from '../src/db/client';
import { AppError } from '../src/domain/errors';
import {
  createOperatorToken,
  listOperatorTokens,
  revokeOperatorToken,
  rotateOperatorToken,
  ROTATION_OVERLAP_MINUTES,
  TOKEN_LIFETIME_DAYS,
  type RunSql,
  type TokenDb,
  type TokenSummary,
} from '../src/domain/operator/tokens';
import { MAINTENANCE_APPS, OPERATOR_SCOPES, TENANT_APPS, TENANT_STATUSES } from '../src/shared/operator/schemas';
import { createScimToken, findTenantForCli } from '../src/domain/scim/tokens';
import { SCIM_TOKEN_LIFETIME_DAYS } from '../src/shared/scim/schemas';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A mistake in how the command was called (exit 64, like sysexits' EX_USAGE). */
class UsageError extends Error {}
/** The portal answered with an error (exit 1). */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

type Options = ParseArgsConfig['options'];
type Values = Record<string, string | boolean | string[] | undefined>;

interface Command {
  name: string;
  usage: string;
  summary: string;
  details?: string;
  options?: Options;
  /** How many positional arguments it takes. */
  args?: number;
  run(ctx: Ctx): Promise<void>;
}

interface Ctx {
  values: Values;
  args: string[];
  json: boolean;
  api: Api;
  out(human: string, data: unknown): void;
}

// ---------------------------------------------------------------------------------------------
// The API client

const GLOBAL_OPTIONS: Options = {
  url: { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

class Api {
  constructor(
    readonly baseUrl: string,
    private token: string | undefined,
  ) {}

  async call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    if (!this.token) throw new UsageError('No operator token: pass --token or set PORTAL_OPERATOR_TOKEN (create one with `npm run portal -- token create`).');
    const url = `${this.baseUrl}/api/operator${path}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          accept: 'application/json',
          'user-agent': 'portal-cli',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
      });
    } catch (e) {
      throw new Error(`Cannot reach ${url}: ${(e as Error & { cause?: Error }).cause?.message ?? (e as Error).message}`);
    }
    const text = await res.text();
    let data: unknown = text;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: reported as is */
    }
    if (!res.ok) throw new ApiError(res.status, data);
    return data as T;
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing helpers

/** "2026-12-31" (midnight Japan time), a full ISO 8601 date-time with offset, or "none" (clears). */
export function parseInstant(value: string, option: string): string | null {
  if (value === 'none') return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T00:00:00+09:00`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value))) return value;
  throw new UsageError(`--${option}: expected YYYY-MM-DD, an ISO 8601 date-time with offset, or "none"; got "${value}"`);
}

/** "--app meishi=10", "--app scheduler=unlimited" (or just "scheduler": unlimited). */
export function parseApps(values: string[]): { app: (typeof TENANT_APPS)[number]; seats: number | null }[] {
  return values.map((v) => {
    const [app, seats = 'unlimited'] = v.split('=');
    if (!(TENANT_APPS as readonly string[]).includes(app!)) throw new UsageError(`--app: unknown app "${app}" (one of ${TENANT_APPS.join(', ')})`);
    if (seats !== 'unlimited' && !/^\d+$/.test(seats)) throw new UsageError(`--app ${app}: seats must be a number or "unlimited"`);
    return { app: app as (typeof TENANT_APPS)[number], seats: seats === 'unlimited' ? null : Number(seats) };
  });
}

/** Short names of --feature keys; the API's own names work too. */
const FEATURES: Record<string, { key: string; kind: 'count' | 'flag' }> = {
  'sso-users': { key: 'featureSsoUsersLimit', kind: 'count' },
  'ip-restriction': { key: 'isFeatureIpRestrictionSubscribed', kind: 'flag' },
  'twofa-enforcement': { key: 'isFeatureTwofaEnforcementSubscribed', kind: 'flag' },
  'negotiations-users': { key: 'featureNegotiationsUsersLimit', kind: 'count' },
  'bulk-email': { key: 'featureBulkEmailMonthlyLimit', kind: 'count' },
  'scanner-keys': { key: 'featureScannerAppKeysLimit', kind: 'count' },
  kintone: { key: 'isFeatureKintoneSubscribed', kind: 'flag' },
  salesforce: { key: 'isFeatureSalesforceSubscribed', kind: 'flag' },
  relation: { key: 'isFeatureRelationSubscribed', kind: 'flag' },
  geniee: { key: 'isFeatureGenieeSubscribed', kind: 'flag' },
};

export function parseFeatures(values: string[]): Record<string, number | boolean> | undefined {
  if (values.length === 0) return undefined;
  const out: Record<string, number | boolean> = {};
  for (const v of values) {
    const [name = '', raw = ''] = v.split('=');
    const f = FEATURES[name] ?? Object.values(FEATURES).find((x) => x.key === name);
    if (!f) throw new UsageError(`--feature: unknown feature "${name}" (one of ${Object.keys(FEATURES).join(', ')})`);
    if (f.kind === 'count') {
      if (!/^\d+$/.test(raw)) throw new UsageError(`--feature ${name}: expected a number`);
      out[f.key] = Number(raw);
    } else {
      if (!['on', 'off', 'true', 'false'].includes(raw)) throw new UsageError(`--feature ${name}: expected on or off`);
      out[f.key] = raw === 'on' || raw === 'true';
    }
  }
  return out;
}

const CONTRACT_OPTIONS = { 'trial-ends': 'trialEndsAt', 'contract-starts': 'contractStartsAt', 'contract-ends': 'contractEndsAt', 'contract-renews': 'contractRenewsAt' } as const;

function contractFrom(values: Values) {
  const out: Record<string, string | null> = {};
  for (const [opt, key] of Object.entries(CONTRACT_OPTIONS)) {
    const v = values[opt];
    if (typeof v === 'string') out[key] = parseInstant(v, opt);
  }
  return Object.keys(out).length ? out : undefined;
}

const tenantShapeOptions: Options = {
  app: { type: 'string', multiple: true },
  feature: { type: 'string', multiple: true },
  'trial-ends': { type: 'string' },
  'contract-starts': { type: 'string' },
  'contract-ends': { type: 'string' },
  'contract-renews': { type: 'string' },
};

function need(values: Values, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError(`--${name} is required`);
  return v;
}

async function resolveTenantId(api: Api, ref: string): Promise<number> {
  if (/^\d+$/.test(ref)) return Number(ref);
  const label = ref.toLowerCase();
  const { tenants } = await api.call<{ tenants: { id: number; initialSubdomain: string; subdomain: string | null }[] }>('GET', `/tenants?q=${encodeURIComponent(label)}`);
  const t = tenants.find((x) => x.initialSubdomain === label || x.subdomain === label);
  if (!t) throw new Error(`No tenant with the subdomain "${ref}"`);
  return t.id;
}

// ---------------------------------------------------------------------------------------------
// Human-readable output

const day = (iso: string | null) => (iso ? new Date(Date.parse(iso) + 9 * 3_600_000).toISOString().slice(0, 10) : '-');

function tenantLines(t: any): string {
  const apps = t.apps.map((a: any) => `${a.app} ${a.used}/${a.seats ?? 'unlimited'}`).join(', ') || '-';
  const f = t.features;
  const flags = Object.entries(FEATURES)
    .map(([short, { key, kind }]) => (kind === 'flag' ? (f[key] ? short : null) : f[key] ? `${short} ${f[key]}` : null))
    .filter(Boolean)
    .join(', ');
  const c = t.contract;
  return [
    `#${t.id} ${t.name}  [${t.status}]`,
    `  host:     ${t.initialSubdomain}${t.subdomain ? ` (custom: ${t.subdomain})` : ''}`,
    `  apps:     ${apps}`,
    `  members:  ${t.members.active} active, ${t.members.admins} admin(s)`,
    `  features: ${flags || '-'}`,
    `  dates:    trial ends ${day(c.trialEndsAt)}; contract ${day(c.contractStartsAt)} .. ${day(c.contractEndsAt)}, renews ${day(c.contractRenewsAt)} (JST)`,
  ].join('\n');
}

/** Columns a terminal gives a string: East Asian wide characters (kanji, kana, full-width) take two. */
const WIDE = /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/;
const width = (s: string) => [...s].reduce((n, ch) => n + (WIDE.test(ch) ? 2 : 1), 0);

function table(rows: string[][]): string {
  if (rows.length <= 1) return '(none)';
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => width(r[i] ?? ''))));
  return rows.map((r) => r.map((cell, i) => cell + ' '.repeat(widths[i]! - width(cell))).join('  ').trimEnd()).join('\n');
}

// ---------------------------------------------------------------------------------------------
// Local administration of tokens: libSQL URL or D1 through wrangler

const dbOptions: Options = {
  d1: { type: 'boolean' },
  remote: { type: 'boolean' },
  env: { type: 'string' },
  'persist-to': { type: 'string' },
  libsql: { type: 'string' },
};

/** Where token administration runs its statements (src/domain/operator/tokens.ts holds the SQL). */
interface TokenStore {
  db: TokenDb;
  close(): void;
}

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** `?` arguments written into the text: `wrangler d1 execute --command` takes no parameters. */
export function inlineSql(text: string, args: SqlArg[]): string {
  let i = 0;
  const out = text.replace(/\?/g, () => {
    if (i >= args.length) throw new Error('inlineSql: more placeholders than arguments');
    const v = args[i++];
    if (v === null || v === undefined) return 'NULL';
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) throw new Error(`inlineSql: not an integer: ${v}`);
      return String(v);
    }
    return sqlText(v);
  });
  if (i !== args.length) throw new Error('inlineSql: more arguments than placeholders');
  return out;
}

function d1Store(values: Values): TokenStore {
  const run: RunSql = async (text, args) => {
    const cmd = ['wrangler', 'd1', 'execute', 'DB', values.remote ? '--remote' : '--local', '--json', '--command', inlineSql(text, args)];
    if (typeof values.env === 'string') cmd.push('--env', values.env);
    if (typeof values['persist-to'] === 'string') cmd.push('--persist-to', values['persist-to']);
    const r = spawnSync('npx', cmd, { cwd: root, encoding: 'utf8', env: { WRANGLER_SEND_METRICS: 'false', ...process.env } });
    if (r.status !== 0) throw new Error(`wrangler d1 execute failed:\n${r.stderr || r.stdout}`);
    const parsed = JSON.parse(r.stdout.slice(r.stdout.indexOf('['))) as { results: Record<string, unknown>[] }[];
    return parsed[0]!.results;
  };
  return { db: run, close() {} };
}

async function libsqlStore(values: Values): Promise<TokenStore> {
  const { openLibsql } = await import('../src/adapters/db-libsql');
  const explicit = typeof values.libsql === 'string' ? values.libsql : process.env.LIBSQL_URL;
  const url = explicit ?? `file:${root}.data/portal.db`;
  if (!explicit) mkdirSync(`${root}.data`, { recursive: true });
  const { db, client } = openLibsql(url, { authToken: process.env.LIBSQL_AUTH_TOKEN });
  return { db, close: () => client.close() };
}

async function tokenStore(values: Values): Promise<TokenStore> {
  if (values.d1 && values.libsql) throw new UsageError('Choose one of --d1 and --libsql');
  if ((values.remote || values.env || values['persist-to']) && !values.d1) throw new UsageError('--remote, --env and --persist-to go with --d1');
  return values.d1 ? d1Store(values) : libsqlStore(values);
}

/** Runs `work` against the chosen database, always closing it. */
async function withTokenStore<T>(values: Values, work: (db: TokenDb) => Promise<T>): Promise<T> {
  const store = await tokenStore(values);
  try {
    return await work(store.db);
  } finally {
    store.close();
  }
}

/** `--expires-in <days>`: whole days, 1 to 365 (default 90). */
export function parseLifetimeDays(value: string | undefined): number {
  if (value === undefined) return TOKEN_LIFETIME_DAYS.default;
  const { min, max } = TOKEN_LIFETIME_DAYS;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--expires-in: expected a whole number of days from ${min} to ${max}; got "${value}"`);
  }
  return Number(value);
}

/** `--overlap <minutes>`: how long the rotated token keeps working, 0 (default) to 1440. */
export function parseOverlapMinutes(value: string | undefined): number {
  if (value === undefined) return ROTATION_OVERLAP_MINUTES.default;
  const { max } = ROTATION_OVERLAP_MINUTES;
  if (!/^\d+$/.test(value) || Number(value) > max) throw new UsageError(`--overlap: expected a whole number of minutes from 0 to ${max} (one day); got "${value}"`);
  return Number(value);
}

/** A token's id argument, or a usage error naming the command. */
function tokenId(command: string, value: string): number {
  if (!/^[1-9]\d{0,15}$/.test(value)) throw new UsageError(`${command}: <id> is a number (see token list)`);
  return Number(value);
}

/** Why token administration refused, in words (the domain's code words otherwise). */
function tokenRefusal(e: unknown, id: number): never {
  if (e instanceof AppError) {
    if (e.code === 'not-found') throw new Error(`No operator token #${id}`);
    if (e.code === 'token-revoked') throw new Error(`Operator token #${id} is revoked: create a new one instead (token create)`);
    if (e.code === 'token-already-rotated') throw new Error(`Operator token #${id} was already rotated, to #${String(e.details.successor)}: rotate that one`);
  }
  throw e;
}

const DB_HELP = `Database (local administration, not the API):
  --libsql <url>        a libSQL URL: file:.data/portal.db, libsql://<db>.turso.io, http://sqld:8080
                        (LIBSQL_AUTH_TOKEN for a server). Default: LIBSQL_URL or file:.data/portal.db
  --d1                  the D1 database "DB" of wrangler.toml, through \`wrangler d1 execute\`
    --remote            the deployed D1 (default: the local one \`npm start\` uses)
    --env <name>        a wrangler.toml environment (staging, production)
    --persist-to <dir>  the local D1 of \`wrangler dev --persist-to <dir>\``;

const fmtTime = (ms: number | null) => (ms ? new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z') : '-');

// ---------------------------------------------------------------------------------------------
// Commands

const COMMANDS: Command[] = [
  {
    name: 'whoami',
    usage: 'whoami',
    summary: 'Show the token in use: its name and scopes (checks URL and token)',
    async run({ api, out }) {
      const me = await api.call('GET', '/whoami');
      out(`Token #${me.id} "${me.name}" at ${api.baseUrl}\nScopes: ${me.scopes.join(', ')}`, me);
    },
  },
  {
    name: 'health',
    usage: 'health',
    summary: 'Readiness of the portal (GET <base>/readyz: the app and its database); needs no token',
    async run({ api, out }) {
      const url = `${api.baseUrl}/readyz`;
      let res: Response;
      try {
        res = await fetch(url);
      } catch (e) {
        throw new Error(`Cannot reach ${url}: ${(e as Error & { cause?: Error }).cause?.message ?? (e as Error).message}`);
      }
      const body = await res.json().catch(() => null);
      if (!res.ok) throw new ApiError(res.status, body);
      out(`${api.baseUrl}: ${body.status}, database ${body.database}, version ${body.version}`, body);
    },
  },
  {
    name: 'tenants list',
    usage: 'tenants list [--status <status>] [--query <text>]',
    summary: 'List tenants',
    details: `  --status <status>   one of ${TENANT_STATUSES.join(', ')}\n  --query <text>      part of the name or of a subdomain`,
    options: { status: { type: 'string' }, query: { type: 'string' } },
    async run({ api, values, out }) {
      const q = new URLSearchParams();
      if (typeof values.status === 'string') q.set('status', values.status);
      if (typeof values.query === 'string') q.set('q', values.query);
      const { tenants } = await api.call('GET', `/tenants${q.size ? `?${q}` : ''}`);
      const rows = [['ID', 'NAME', 'SUBDOMAIN', 'STATUS', 'APPS (used/seats)'], ...tenants.map((t: any) => [String(t.id), t.name, t.subdomain ? `${t.initialSubdomain} (${t.subdomain})` : t.initialSubdomain, t.status, t.apps.map((a: any) => `${a.app} ${a.used}/${a.seats ?? '∞'}`).join(', ')])];
      out(table(rows), { tenants });
    },
  },
  {
    name: 'tenants get',
    usage: 'tenants get <id|subdomain>',
    summary: 'Show one tenant',
    args: 1,
    async run({ api, args, out }) {
      const t = await api.call('GET', `/tenants/${await resolveTenantId(api, args[0]!)}`);
      out(tenantLines(t), t);
    },
  },
  {
    name: 'tenants create',
    usage: 'tenants create --name <name> --subdomain <label> --admin-email <email> --admin-name <name> --app <app[=seats]>... [options]',
    summary: 'Create a tenant with its initial subdomain and first admin (invited by mail)',
    details: `  --name <name>              company name
  --subdomain <label>        initial subdomain (permanent): <label>.<domain>
  --admin-email <email>      first administrator; gets an invitation mail unless already registered
  --admin-name <name>        their name
  --admin-language ja|en     language of the invitation and screens (default ja)
  --status trial|contracted  (default trial)
  --app <app>[=<seats>]      repeat per app: ${TENANT_APPS.join(', ')}; seats a number or "unlimited" (default)
  --feature <name>=<value>   repeat: ${Object.entries(FEATURES).map(([k, f]) => `${k}=${f.kind === 'flag' ? 'on|off' : 'N'}`).join(', ')}
  --trial-ends <date>        dates: YYYY-MM-DD (midnight JST), ISO 8601 with offset, or "none"
  --contract-starts <date>
  --contract-ends <date>
  --contract-renews <date>`,
    options: { name: { type: 'string' }, subdomain: { type: 'string' }, 'admin-email': { type: 'string' }, 'admin-name': { type: 'string' }, 'admin-language': { type: 'string' }, status: { type: 'string' }, ...tenantShapeOptions },
    async run({ api, values, out }) {
      const apps = parseApps((values.app as string[] | undefined) ?? []);
      if (apps.length === 0) throw new UsageError('--app is required (at least one app)');
      const body = {
        name: need(values, 'name'),
        subdomain: need(values, 'subdomain'),
        ...(typeof values.status === 'string' ? { status: values.status } : {}),
        apps,
        features: parseFeatures((values.feature as string[] | undefined) ?? []),
        contract: contractFrom(values),
        admin: { email: need(values, 'admin-email'), name: need(values, 'admin-name'), ...(typeof values['admin-language'] === 'string' ? { language: values['admin-language'] } : {}) },
      };
      const r = await api.call('POST', '/tenants', body);
      const note = { sent: `Invitation mailed to ${r.admin.email}.`, 'not-needed': `${r.admin.email} is already registered: added as admin, no invitation.`, failed: `WARNING: the invitation mail to ${r.admin.email} could not be sent.` }[r.admin.invitation as string];
      out(`Created tenant:\n${tenantLines(r.tenant)}\n${note}`, r);
    },
  },
  {
    name: 'tenants update',
    usage: 'tenants update <id|subdomain> [--name <name>] [--status <status>] [--app <app[=seats]>...] [--feature <name>=<value>...] [--trial-ends <date>] ...',
    summary: 'Change name, status, apps and seats, features and limits, contract and trial dates',
    details: `  --name <name>
  --status <status>          one of ${TENANT_STATUSES.join(', ')}
  --app <app>[=<seats>]      replaces the whole set of apps (repeat per app)
  --feature <name>=<value>   changes only the features named (see tenants create --help)
  --trial-ends, --contract-starts, --contract-ends, --contract-renews <date|none>`,
    args: 1,
    options: { name: { type: 'string' }, status: { type: 'string' }, ...tenantShapeOptions },
    async run({ api, values, args, out }) {
      const body: Record<string, unknown> = {};
      if (typeof values.name === 'string') body.name = values.name;
      if (typeof values.status === 'string') body.status = values.status;
      if (values.app) body.apps = parseApps(values.app as string[]);
      const features = parseFeatures((values.feature as string[] | undefined) ?? []);
      if (features) body.features = features;
      const contract = contractFrom(values);
      if (contract) body.contract = contract;
      if (Object.keys(body).length === 0) throw new UsageError('Nothing to change: give at least one option');
      const t = await api.call('PATCH', `/tenants/${await resolveTenantId(api, args[0]!)}`, body);
      out(`Updated tenant:\n${tenantLines(t)}`, t);
    },
  },
  {
    name: 'managers list',
    usage: 'managers list',
    summary: 'List tenant managers (staff who may open any tenant\'s manager pages)',
    async run({ api, out }) {
      const { managers } = await api.call('GET', '/managers');
      out(table([['ID', 'EMAIL', 'NAME'], ...managers.map((m: any) => [String(m.id), m.email, m.name])]), { managers });
    },
  },
  {
    name: 'managers grant',
    usage: 'managers grant <email>',
    summary: 'Make a registered user a tenant manager',
    args: 1,
    async run({ api, args, out }) {
      const r = await api.call('POST', '/managers', { email: args[0] });
      out(`${r.email} is now a tenant manager.`, r);
    },
  },
  {
    name: 'managers revoke',
    usage: 'managers revoke <email>',
    summary: 'Take tenant-manager rights away (effective at the user\'s next request)',
    args: 1,
    async run({ api, args, out }) {
      const r = await api.call('POST', '/managers/revoke', { email: args[0] });
      out(`${r.email} is no longer a tenant manager.`, r);
    },
  },
  {
    name: 'maintenance list',
    usage: 'maintenance list [--all]',
    summary: 'Maintenance messages not yet ended (--all: also ended ones)',
    options: { all: { type: 'boolean' } },
    async run({ api, values, out }) {
      const { messages } = await api.call('GET', `/maintenance-messages${values.all ? '?all=true' : ''}`);
      const rows = [['ID', 'APP', 'ACTIVE', 'STARTS', 'ENDS', 'MESSAGE (ja / en)'], ...messages.map((m: any) => [String(m.id), m.app, m.active ? 'yes' : 'no', m.startsAt ?? '-', m.endsAt ?? '-', `${m.messageJa} / ${m.messageEn}`])];
      out(table(rows), { messages });
    },
  },
  {
    name: 'maintenance post',
    usage: 'maintenance post --app <app> --ja <text> --en <text> [--starts <date>] [--ends <date>]',
    summary: 'Post a maintenance message shown in an app\'s banner',
    details: `  --app <app>        one of ${MAINTENANCE_APPS.join(', ')}
  --ja <text>        the Japanese text
  --en <text>        the English text
  --starts <date>    from (default: now); YYYY-MM-DD (midnight JST) or ISO 8601 with offset
  --ends <date>      until (default: until deleted)`,
    options: { app: { type: 'string' }, ja: { type: 'string' }, en: { type: 'string' }, starts: { type: 'string' }, ends: { type: 'string' } },
    async run({ api, values, out }) {
      const body = {
        app: need(values, 'app'),
        messageJa: need(values, 'ja'),
        messageEn: need(values, 'en'),
        ...(typeof values.starts === 'string' ? { startsAt: parseInstant(values.starts, 'starts') } : {}),
        ...(typeof values.ends === 'string' ? { endsAt: parseInstant(values.ends, 'ends') } : {}),
      };
      const m = await api.call('POST', '/maintenance-messages', body);
      out(`Posted maintenance message #${m.id} for ${m.app} (${m.active ? 'showing now' : `from ${m.startsAt}`}${m.endsAt ? ` until ${m.endsAt}` : ''}).`, m);
    },
  },
  {
    name: 'maintenance delete',
    usage: 'maintenance delete <id>',
    summary: 'Remove a maintenance message (the banner disappears at once)',
    args: 1,
    async run({ api, args, out }) {
      const r = await api.call('DELETE', `/maintenance-messages/${encodeURIComponent(args[0]!)}`);
      out(`Deleted maintenance message #${args[0]}.`, r);
    },
  },
  {
    name: 'requests list',
    usage: 'requests list [--kind get_more_services|contract_application] [--tenant <id|subdomain>] [--all]',
    summary: 'Pending get-more-services requests and contract applications (--all: handled ones too)',
    options: { kind: { type: 'string' }, tenant: { type: 'string' }, all: { type: 'boolean' } },
    async run({ api, values, out }) {
      const q = new URLSearchParams();
      if (typeof values.kind === 'string') q.set('kind', values.kind);
      if (typeof values.tenant === 'string') q.set('tenantId', String(await resolveTenantId(api, values.tenant)));
      if (values.all) q.set('state', 'all');
      const { requests } = await api.call('GET', `/service-requests${q.size ? `?${q}` : ''}`);
      const what = (r: any) => (r.kind === 'contract_application' ? 'contract application' : (r.payload as { key: string; value: unknown }[]).map((i) => `${i.key}=${String(i.value)}`).join(', '));
      const rows = [['ID', 'DATE', 'TENANT', 'BY', 'REQUEST', 'HANDLED'], ...requests.map((r: any) => [String(r.id), r.createdAt.slice(0, 16).replace('T', ' '), `${r.tenant.name} (${r.tenant.initialSubdomain})`, r.requestedBy?.email ?? '-', what(r), r.handledAt ? r.handledAt.slice(0, 10) : '-'])];
      out(table(rows), { requests });
    },
  },
  {
    name: 'sso-certificates',
    usage: 'sso-certificates [--days <n>]',
    summary: "Tenants whose IdP signing certificates end within n days (default 30) or have ended",
    options: { days: { type: 'string' } },
    async run({ api, values, out }) {
      const days = typeof values.days === 'string' ? values.days : '30';
      if (!/^\d{1,4}$/.test(days)) throw new UsageError('--days takes a whole number of days');
      const r = await api.call('GET', `/sso-certificates?days=${days}`);
      const rows = [
        ['TENANT', 'SUBDOMAIN', 'SSO', 'CERTIFICATE (SHA-256)', 'ENDS', 'DAYS LEFT', 'METADATA URL'],
        ...r.tenants.flatMap((t: any) => t.certificates.map((c: any) => [`${t.name} (#${t.tenantId})`, t.initialSubdomain, t.ssoEnabled ? 'on' : 'off', `${c.fingerprint.slice(0, 16)}…`, c.notAfter.slice(0, 16).replace('T', ' '), c.expired ? 'expired' : String(c.daysLeft), t.metadataUrl ?? '-'])),
      ];
      out(r.tenants.length ? table(rows) : `No tenant has a certificate ending within ${r.days} days.`, r);
    },
  },
  {
    name: 'requests handled',
    usage: 'requests handled <id>',
    summary: 'Mark a request handled (it leaves the pending list)',
    args: 1,
    async run({ api, args, out }) {
      const r = await api.call('POST', `/service-requests/${encodeURIComponent(args[0]!)}/handled`);
      out(`Request #${r.id} marked handled.`, r);
    },
  },
  {
    name: 'token create',
    usage: 'token create --name <name> --scopes <scope,...|all> [--expires-in <days>] [--libsql <url> | --d1 [--remote] [--env <name>]]',
    summary: 'Create an operator token (printed once; only its digest is stored)',
    details: `  --name <name>         who or what uses it ("ops-tool", "alice laptop")
  --scopes <list>       comma-separated: ${OPERATOR_SCOPES.join(', ')}; or "all"
  --expires-in <days>   lifetime in days, ${TOKEN_LIFETIME_DAYS.min} to ${TOKEN_LIFETIME_DAYS.max} (default ${TOKEN_LIFETIME_DAYS.default})
${DB_HELP}`,
    options: { name: { type: 'string' }, scopes: { type: 'string' }, 'expires-in': { type: 'string' }, ...dbOptions },
    async run({ values, out }) {
      const raw = need(values, 'scopes');
      const scopes = raw === 'all' ? [...OPERATOR_SCOPES] : raw.split(',').map((s) => s.trim()).filter(Boolean);
      const unknown = scopes.filter((s) => !(OPERATOR_SCOPES as readonly string[]).includes(s));
      if (unknown.length) throw new UsageError(`--scopes: unknown scope(s) ${unknown.join(', ')} (known: ${OPERATOR_SCOPES.join(', ')})`);
      const name = need(values, 'name');
      const expiresInDays = parseLifetimeDays(values['expires-in'] as string | undefined);
      const r = await withTokenStore(values, (db) => createOperatorToken(db, name, scopes, Date.now(), { expiresInDays }));
      out(
        `Created operator token #${r.id} "${r.name}" with scopes ${r.scopes.join(', ')}, expiring ${fmtTime(r.expiresAt)} (in ${expiresInDays} days).\nIt is shown only now; store it in a secret manager:\n\n${r.token}\n`,
        r,
      );
    },
  },
  {
    name: 'token list',
    usage: 'token list [--libsql <url> | --d1 [--remote] [--env <name>]]',
    summary: 'List operator tokens (never their secrets): state, end, last use and its address',
    details: `Working tokens first, the one that ends soonest at the top; then ended ones (expired, revoked,
rotated), the latest first. STATE: active; ending (rotated, still working during the overlap);
expired; rotated (ended by a rotation); revoked. Times are UTC.

${DB_HELP}`,
    options: dbOptions,
    async run({ values, out }) {
      const tokens = await withTokenStore(values, (db) => listOperatorTokens(db, Date.now()));
      const state = (t: TokenSummary) => (t.replacedById !== null && t.state !== 'revoked' ? `${t.state} (→ #${t.replacedById})` : t.state);
      const rows = [
        ['ID', 'NAME', 'SCOPES', 'STATE', 'ENDS', 'LAST USED', 'FROM', 'CREATED'],
        ...tokens.map((t) => [String(t.id), t.name, t.scopes.join(','), state(t), t.state === 'revoked' ? `revoked ${fmtTime(t.revokedAt)}` : fmtTime(t.endsAt), fmtTime(t.lastUsedAt), t.lastUsedIp ?? '-', fmtTime(t.createdAt)]),
      ];
      out(table(rows), { tokens });
    },
  },
  {
    name: 'token rotate',
    usage: 'token rotate <id> [--expires-in <days>] [--overlap <minutes>] [--libsql <url> | --d1 [--remote] [--env <name>]]',
    summary: 'Replace a token with a new one of the same name and scopes (printed once); the old one ends',
    details: `  --expires-in <days>   the new token's lifetime, ${TOKEN_LIFETIME_DAYS.min} to ${TOKEN_LIFETIME_DAYS.max} (default ${TOKEN_LIFETIME_DAYS.default})
  --overlap <minutes>   how long the old token keeps working so deployments can switch,
                        0 to ${ROTATION_OVERLAP_MINUTES.max} (default ${ROTATION_OVERLAP_MINUTES.default}: it ends at once)
One statement writes the new token and the old one's end together. A token is rotated once (then
rotate its successor); a revoked one is not rotated (create a new one); an expired one may be.

${DB_HELP}`,
    args: 1,
    options: { 'expires-in': { type: 'string' }, overlap: { type: 'string' }, ...dbOptions },
    async run({ values, args, out }) {
      const id = tokenId('token rotate', args[0]!);
      const expiresInDays = parseLifetimeDays(values['expires-in'] as string | undefined);
      const overlapMinutes = parseOverlapMinutes(values.overlap as string | undefined);
      const r = await withTokenStore(values, (db) => rotateOperatorToken(db, id, Date.now(), { expiresInDays, overlapMinutes }).catch((e) => tokenRefusal(e, id)));
      const ends = overlapMinutes === 0 ? 'has ended' : `keeps working until ${fmtTime(r.replaced.endsAt)}`;
      out(
        `Rotated operator token #${id} "${r.name}": the new token #${r.id} has scopes ${r.scopes.join(', ')} and expires ${fmtTime(r.expiresAt)} (in ${expiresInDays} days); #${id} ${ends}.\nThe new token is shown only now; store it in a secret manager:\n\n${r.token}\n`,
        r,
      );
    },
  },
  {
    name: 'token revoke',
    usage: 'token revoke <id> [--libsql <url> | --d1 [--remote] [--env <name>]]',
    summary: 'Revoke an operator token (refused from the next call on)',
    details: DB_HELP,
    args: 1,
    options: dbOptions,
    async run({ values, args, out }) {
      const id = tokenId('token revoke', args[0]!);
      if (!(await withTokenStore(values, (db) => revokeOperatorToken(db, id, Date.now())))) throw new Error(`No operator token #${id}`);
      out(`Revoked operator token #${id}.`, { id, revoked: true });
    },
  },
  {
    name: 'scim-token',
    usage: 'scim-token <tenant id|subdomain> [--name <name>] [--expires-in <days>] [--libsql <url> | --d1 [--remote] [--env <name>]]',
    summary: "Create a tenant's SCIM provisioning token (printed once, with the tenant's SCIM base URL)",
    details: `  --name <name>         shown as the actor of every change it makes (default "SCIM")
  --expires-in <days>   lifetime in days, ${SCIM_TOKEN_LIFETIME_DAYS.min} to ${SCIM_TOKEN_LIFETIME_DAYS.max} (default ${SCIM_TOKEN_LIFETIME_DAYS.default})
The same token as the tenant admin's "Provisioning (SCIM)" screen makes (decision 0040): only its
digest is stored, it opens that tenant's SCIM endpoint only, and the admins see and may revoke it.
It works while the tenant has the SSO subscription. The audit log names the operators' CLI.

${DB_HELP}`,
    args: 1,
    options: { name: { type: 'string' }, 'expires-in': { type: 'string' }, ...dbOptions },
    async run({ values, args, out }) {
      const name = typeof values.name === 'string' ? values.name : 'SCIM';
      const raw = values['expires-in'] as string | undefined;
      const { min, max } = SCIM_TOKEN_LIFETIME_DAYS;
      if (raw !== undefined && (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)) {
        throw new UsageError(`--expires-in: expected a whole number of days from ${min} to ${max}; got "${raw}"`);
      }
      const expiresInDays = raw === undefined ? SCIM_TOKEN_LIFETIME_DAYS.default : Number(raw);
      const r = await withTokenStore(values, async (db) => {
        const tenant = await findTenantForCli(db, args[0]!);
        if (!tenant) throw new UsageError(`scim-token: no tenant "${args[0]}" (give its id, initial or custom subdomain)`);
        const made = await createScimToken(db, tenant.id, { name, expiresInDays }, { userId: null, name: 'operator CLI', ip: null, userAgent: 'portal-cli' }, Date.now()).catch((e: unknown) => {
          if (e instanceof AppError && e.code === 'invalid-token-name') throw new UsageError('--name: up to 100 letters, digits, spaces and . _ @ : ( ) / -');
          if (e instanceof AppError && e.code === 'scim-token-limit') throw new Error(`${tenant.name} already holds ${String(e.details.max)} working SCIM tokens; an admin revokes one first`);
          throw e;
        });
        return { tenant, made };
      });
      const portal = new URL(String(values.url ?? process.env.PORTAL_URL ?? 'http://localhost:8787/accounts'));
      const baseUrl = `${portal.protocol}//${r.tenant.initialSubdomain}.${portal.host}${portal.pathname.replace(/\/+$/, '')}/scim/v2`;
      const warning = r.tenant.ssoSubscribed ? '' : `\nNote: ${r.tenant.name} has no SSO subscription; the endpoint answers 403 until it has one.`;
      out(
        `Created SCIM token #${r.made.id} "${r.made.name}" for ${r.tenant.name}, expiring ${fmtTime(r.made.expiresAt)} (in ${expiresInDays} days).${warning}\nSCIM base URL: ${baseUrl}\nThe token is shown only now; paste it into the identity provider:\n\n${r.made.token}\n`,
        { id: r.made.id, name: r.made.name, tenantId: r.tenant.id, baseUrl, token: r.made.token, expiresAt: r.made.expiresAt },
      );
    },
  },
];

const GLOBAL_HELP = `Global options:
  --url <url>      the portal with its base path (default: PORTAL_URL or http://localhost:8787/accounts)
  --token <token>  operator token (default: PORTAL_OPERATOR_TOKEN)
  --json           print the API's JSON instead of text
  -h, --help       help for a command`;

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: npm run portal -- <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    GLOBAL_HELP,
    '',
    'Run `npm run portal -- <command> --help` for a command\'s options.',
  ].join('\n');
}

function commandHelp(c: Command): string {
  return [`Usage: npm run portal -- ${c.usage}`, '', c.summary, ...(c.details ? ['', c.details] : []), '', GLOBAL_HELP].join('\n');
}

function describeError(e: unknown): string {
  if (e instanceof ApiError) {
    const b = e.body as { message?: string; errors?: Record<string, string[]>; scope?: string; duration?: number } | string | null;
    if (b && typeof b === 'object' && b.message) {
      const hints: Record<string, string> = {
        unauthenticated: 'no token reached the portal',
        'invalid-token': 'the token is wrong, expired or revoked',
        'insufficient-scope': `the token lacks the scope ${b.scope}`,
        'not-found': 'no such object (or the URL is not the portal\'s main domain)',
        'too-many-attempts': `too many failed attempts with this token, or with any token, from this address; retry in ${b.duration}s`,
      };
      const lines = [`Error: ${b.message}${hints[b.message] ? ` (${hints[b.message]})` : ''} [HTTP ${e.status}]`];
      for (const [field, msgs] of Object.entries(b.errors ?? {})) lines.push(`  ${field}: ${msgs.join('; ')}`);
      return lines.join('\n');
    }
    return `Error: HTTP ${e.status}${typeof b === 'string' && b ? `: ${b.slice(0, 200)}` : ''}`;
  }
  return `Error: ${(e as Error).message}`;
}

export async function main(argv: string[]): Promise<number> {
  // The command comes first: one or two words ("whoami", "tenants create").
  const command = COMMANDS.find((c) => c.name === argv.slice(0, 2).join(' ')) ?? COMMANDS.find((c) => c.name === argv[0]);
  if (!command) {
    const asked = argv.length === 0 || ['--help', '-h', 'help'].includes(argv[0]!);
    const group = COMMANDS.filter((c) => c.name.startsWith(`${argv[0]} `));
    if (group.length && !asked) {
      console.error(`${argv[0]}: choose one of: ${group.map((c) => c.name.split(' ')[1]).join(', ')}\n\n${mainHelp()}`);
      return argv.includes('--help') || argv.includes('-h') ? 0 : 64;
    }
    (asked ? console.log : console.error)(`${asked ? '' : `Unknown command: ${argv.slice(0, 2).join(' ')}\n\n`}${mainHelp()}`);
    return asked ? 0 : 64;
  }
  let values: Values;
  let positionals: string[];
  try {
    const rest = argv.slice(command.name.split(' ').length);
    ({ values, positionals } = parseArgs({ args: rest, options: { ...GLOBAL_OPTIONS, ...command.options }, allowPositionals: true, strict: true }) as { values: Values; positionals: string[] });
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${commandHelp(command)}`);
    return 64;
  }
  if (values.help) {
    console.log(commandHelp(command));
    return 0;
  }
  if (positionals.length !== (command.args ?? 0)) {
    console.error(`${command.name}: expected ${command.args ?? 0} argument(s), got ${positionals.length}\n\n${commandHelp(command)}`);
    return 64;
  }
  const json = Boolean(values.json);
  const baseUrl = String(values.url ?? process.env.PORTAL_URL ?? 'http://localhost:8787/accounts').replace(/\/+$/, '');
  const api = new Api(baseUrl, (values.token as string | undefined) ?? process.env.PORTAL_OPERATOR_TOKEN);
  try {
    await command.run({ values, args: positionals, json, api, out: (human, data) => console.log(json ? JSON.stringify(data, null, 2) : human) });
    return 0;
  } catch (e) {
    if (json && e instanceof ApiError) console.error(JSON.stringify({ status: e.status, body: e.body }));
    else console.error(describeError(e));
    if (e instanceof UsageError) return 64;
    return 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
