// Typed configuration, read once from the environment by each entry. Defaults suit local dev;
// production must set the secrets (see README "Configuration").
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const path = z.string().regex(/^\/[A-Za-z0-9/_-]*$/);

export const configSchema = z.object({
  PORTAL_DOMAIN: z.string().min(1).default('localhost'),
  BASE_PATH: path.default('/accounts'),
  /** Public origin of the main domain, used in mail links ("https://portal.example.com"). */
  PUBLIC_URL: z.string().url().optional(),
  /** The port the portal listens on (Node: PORT; `npm start` passes it to the worker), for PUBLIC_URL's dev default. */
  PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(65535).optional()),
  APP_URL_MEISHI: z.string().default('/meishi/'),
  APP_URL_SCHEDULER: z.string().default('/scheduler/'),
  APP_URL_OPERATOR: z.string().default('/operator/'),
  MANUAL_URL: z.string().url().default('https://example.com/manual'),
  FAQ_URL: z.string().url().default('https://example.com/faq'),
  /** Dev mode: app stand-in pages and the mail/SMS outbox page. Never in production. */
  DEV_MODE: bool,
  /**
   * Development and browser tests only: IdP metadata URLs on loopback (any port) are fetched.
   * Ignored unless DEV_MODE is on (decision 0042).
   */
  DEV_SSO_METADATA_LOOPBACK: bool,
  /** Lifetime of a "keep me logged in" session, and the idle limit of an ordinary one. */
  SESSION_REMEMBER_DAYS: z.coerce.number().int().min(1).max(400).default(30),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(5).max(7 * 24 * 60).default(12 * 60),
  /** Absolute lifetime of an ordinary session, however active: then the person signs in again. */
  SESSION_MAX_DAYS: z.coerce.number().int().min(1).max(400).default(7),
  /** How long a process keeps what a host name resolved to, for signed-out reads (0: never). */
  HOST_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  /** Hand-off codes only work in the browser that asked for them (a cookie on PORTAL_DOMAIN).
   *  Browsers keep a `Domain=localhost` cookie to that one host, so the local dev scripts on
   *  *.localhost turn it off; never turn it off on a real domain. */
  HANDOFF_BROWSER_BINDING: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  /** HMAC key for signed mail links; the previous key still verifies during rotation. */
  LINK_SIGNING_KEY: z.string().min(32).optional(),
  LINK_SIGNING_KEY_PREVIOUS: z.string().min(32).optional(),
  /** Key for secrets stored encrypted (TOTP seeds); high-entropy, at least 32 characters. */
  DATA_ENCRYPTION_KEY: z.string().min(32).optional(),
  /** Node only: which header carries the client address behind a trusted proxy. */
  TRUST_PROXY: z.enum(['none', 'x-forwarded-for', 'x-real-ip', 'cf-connecting-ip']).default('none'),
  MAIL_FROM: z.string().default('Portal <no-reply@localhost>'),
  SMTP_URL: z.string().optional(),
  /** Where get-more-services requests and contract applications are mailed (the provider's sales). */
  SALES_EMAIL: z.string().optional(),
  /** Links of the trial-expired prompt. */
  PLAN_URL: z.string().url().default('https://example.com/plans'),
  INQUIRY_URL: z.string().url().default('https://example.com/inquiry'),
  /** Twilio-style SMS API: POST form {To, From, Body} with HTTP basic auth. */
  SMS_API_URL: z.string().url().optional(),
  SMS_API_USER: z.string().optional(),
  SMS_API_TOKEN: z.string().optional(),
  SMS_FROM: z.string().optional(),
  /** Internal base URLs of the apps' portal API (app usage counts, member removal), and its token. */
  APP_USAGE_MEISHI_URL: z.string().url().optional(),
  APP_USAGE_SCHEDULER_URL: z.string().url().optional(),
  APP_USAGE_TOKEN: z.string().optional(),
  /** DELETE admin/users/{id} waits this long for the deletion before answering 202 (then 204 if done). */
  USER_DELETE_WAIT_MS: z.coerce.number().int().min(0).max(10_000).default(1500),
  /** Invitation mails sent per drain of the mail queue (one drain a minute on Workers, every 10 s on Node). */
  MAIL_QUEUE_BATCH: z.coerce.number().int().min(1).max(1000).default(200),
  /** Requests one SCIM token may make per minute (decision 0040); more answer 429 with Retry-After. */
  SCIM_REQUESTS_PER_MINUTE: z.coerce.number().int().min(60).max(1_000_000).default(6000),
  // CSV import jobs (decision 0030): the size of the stored pieces a job step reads (a piece is cut
  // after a newline byte, at most twice this), and the largest file answered within its request
  // (larger ones answer 202 and run as a job the island follows).
  IMPORT_CHUNK_BYTES: z.coerce.number().int().min(1024).max(512 * 1024).default(64 * 1024),
  IMPORT_INLINE_BYTES: z.coerce.number().int().min(0).max(50 * 1024 * 1024).default(1024 * 1024),
});

export type Config = z.infer<typeof configSchema> & {
  version: string;
  PUBLIC_URL: string;
  LINK_SIGNING_KEY: string;
  DATA_ENCRYPTION_KEY: string;
};

export const APP_VERSION = 'v2.53.2';

/** Dev-only signing key so a fresh clone runs; production refuses to start without a real one. */
const DEV_LINK_KEY = 'dev-only-link-signing-key-change-me-0123456789';
const DEV_DATA_KEY = 'dev-only-data-encryption-key-change-me-0123456789';

export function readConfig(env: Record<string, unknown>): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid configuration: ${z.prettifyError(parsed.error)}`);
  }
  const c = parsed.data;
  if (!c.LINK_SIGNING_KEY) {
    if (!c.DEV_MODE) throw new Error('Invalid configuration: LINK_SIGNING_KEY is required outside DEV_MODE');
    c.LINK_SIGNING_KEY = DEV_LINK_KEY;
  }
  if (!c.DATA_ENCRYPTION_KEY) {
    if (!c.DEV_MODE) throw new Error('Invalid configuration: DATA_ENCRYPTION_KEY is required outside DEV_MODE');
    c.DATA_ENCRYPTION_KEY = DEV_DATA_KEY;
  }
  // Outside dev mode mail must really leave: the outbox table is a development stand-in.
  if (!c.SMTP_URL && !c.DEV_MODE) throw new Error('Invalid configuration: SMTP_URL is required outside DEV_MODE');
  // In dev mode the default follows the port actually listened on: mail links signed for another
  // origin fail their signature (issue 14, `PORT=8851 npm start`).
  const publicUrl = (c.PUBLIC_URL ?? (c.DEV_MODE ? `http://${c.PORTAL_DOMAIN}:${c.PORT ?? 8787}` : `https://${c.PORTAL_DOMAIN}`)).replace(/\/+$/, '');
  return { ...c, DEV_SSO_METADATA_LOOPBACK: c.DEV_MODE && c.DEV_SSO_METADATA_LOOPBACK, PUBLIC_URL: publicUrl, LINK_SIGNING_KEY: c.LINK_SIGNING_KEY, DATA_ENCRYPTION_KEY: c.DATA_ENCRYPTION_KEY, BASE_PATH: c.BASE_PATH.replace(/\/+$/, '') || '/accounts', version: APP_VERSION };
}
