// The ports each entry fills in (composition root per runtime). Nothing here knows which
// runtime it runs on.
import type { Config } from './config';
import type { Db } from './db/client';

export interface Geo {
  countryCode: string | null;
  country: string | null;
  city: string | null;
  state: string | null;
}

export interface RuntimePort {
  /** The client address the runtime trusts (CF-Connecting-IP on Workers, socket or proxy on Node). */
  clientIp(req: Request, env: unknown): string | null;
  /** Whether the public URL is https (behind a trusted proxy on Node). */
  isHttps(req: Request, env: unknown): boolean;
  /**
   * One request header (lower-case name). Node reads it from the connection's own message: the
   * WHATWG Headers object its adapter builds on first use cost a tenth of a signed-in GET.
   */
  header(req: Request, env: unknown, name: string): string | undefined;
  /** The id the platform gave this request (CF-Ray on Workers); null where none is trusted. */
  requestId(req: Request): string | null;
  geo(req: Request): Geo | null;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  tenantId?: number | null;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

export interface OutgoingSms {
  /** E.164, e.g. +819012345678 */
  to: string;
  body: string;
  tenantId?: number | null;
}

export interface SmsSender {
  send(sms: OutgoingSms): Promise<void>;
}

/** Who the portal asks about a member's data in an app (see docs/decisions/0013-app-usage-port.md). */
export interface AppUserRef {
  tenantId: number;
  /** The tenant's permanent label; apps key their tenants by it. */
  tenantInitialSubdomain: string;
  userId: number;
  email: string;
}

/**
 * The apps report usage figures the portal shows but does not own (cards in the card app,
 * schedules in the scheduler), and hear when a member leaves a tenant. The portal never guesses
 * these numbers: an app that does not answer makes the call fail.
 */
export interface AppUsageReporter {
  /** Business cards the member holds in the card app (for the "remove meishi" confirmation). */
  cardsCount(ref: AppUserRef): Promise<number>;
  /** Schedules the member owns in the scheduler (for the "remove scheduler" confirmation). */
  schedulesCount(ref: AppUserRef): Promise<number>;
  /** The member was deleted from the tenant: the app removes or hands over their data. Idempotent. */
  userRemoved(ref: AppUserRef, apps: ('meishi' | 'scheduler')[]): Promise<void>;
}

/** Work that continues a background job in a fresh invocation (decision 0030). */
export interface JobMessage {
  kind: 'import';
  jobId: number;
}

/**
 * A queue whose consumer runs background jobs step by step (Cloudflare Queues on Workers, where
 * one invocation's CPU and wall time cannot finish a 50 MB import). Without it, jobs run in the
 * process (Node) or in the request's waitUntil, and the people sweep resumes them.
 */
export interface JobQueue {
  send(message: JobMessage, opts?: { delaySeconds?: number }): Promise<void>;
}

/** A database handle for one request (Workers: a D1 session following the browser's bookmark). */
export interface DbScope {
  db: Db;
  /** Where this request's reads and writes left the database, for the browser's next request. */
  bookmark(): string | null;
  /** Calls that reached the database (dev mode reports them in a response header). */
  roundTrips(): number;
  /** Where its first read went: the primary, any replica, or one at least at the bookmark. */
  start: 'first-primary' | 'first-unconstrained' | 'bookmark';
}

export interface DbScopes {
  /** `primary`: the first query reads the primary (then replicas at least that new). */
  open(bookmark: string | null, primary: boolean): DbScope;
}

/** Password hashes as PHC strings (domain/security/password-hashing.ts makes one per runtime). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** needsRehash: the stored hash is valid but weaker than the current policy. */
  verify(password: string, stored: string): Promise<{ ok: boolean; needsRehash: boolean }>;
}

/** One answer of OutboundHttp.get: the status, a redirect's Location, and the body to read. */
export interface OutboundResponse {
  status: number;
  location: string | null;
  body: AsyncIterable<Uint8Array> | null;
  /** Stops reading (the caller refuses the rest). */
  cancel(): void;
}

/**
 * Server-side GETs of URLs an admin gives (IdP metadata, decision 0042). One request, never
 * following a redirect. Where the runtime can resolve names it refuses a host whose address is
 * refused by `refused` and connects only to the address it checked (Node); elsewhere the caller's
 * checks of the URL are what holds (workerd cannot resolve).
 */
export interface OutboundHttp {
  /** Whether this runtime checks resolved addresses itself (Node, Deno) or cannot (Workers). */
  readonly resolves: boolean;
  get(url: URL, opts: { signal: AbortSignal; refused: (ip: string) => boolean }): Promise<OutboundResponse>;
}

export interface Deps {
  db: Db;
  config: Config;
  clock: { now(): number };
  passwords: PasswordHasher;
  mailer: Mailer;
  sms: SmsSender;
  runtime: RuntimePort;
  /** Optional so older compositions keep working; without it counts answer app-usage-unavailable. */
  appUsage?: AppUsageReporter;
  /** Optional: without it, background jobs run in place (see JobQueue). */
  jobs?: JobQueue;
  /** Per-request database sessions, where the runtime has them (Workers + D1). */
  dbScopes?: DbScopes;
  /** Optional: without it, IdP metadata URLs cannot be read (the XML can still be pasted). */
  outbound?: OutboundHttp;
}
