// HTTP client for the workers layer. Node's fetch cannot resolve *.localhost and will not send a
// chosen Host header, so requests go to 127.0.0.1:<port> with node:http and the tenant's host in
// Host (workerd then builds request.url from it). A Browser keeps one cookie jar per host name,
// as a browser does for the portal's host-only cookies.
import { request as httpRequest } from 'node:http';

export interface WorkerResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface RawRequest {
  method: string;
  path: string;
  host: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One HTTP/1.1 request to wrangler dev on 127.0.0.1, with `host` as the Host header. */
export function rawRequest(port: number, req: RawRequest, timeoutMs = 20_000): Promise<WorkerResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...req.headers, host: req.host };
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    const r = httpRequest({ host: '127.0.0.1', port, method: req.method, path: req.path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          if (v === undefined) continue;
          for (const one of Array.isArray(v) ? v : [v]) h.append(k, one);
        }
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* html or empty */
        }
        resolve({ status: res.statusCode ?? 0, headers: h, body, text });
      });
    });
    r.setTimeout(timeoutMs, () => r.destroy(new Error(`${req.method} ${req.host}${req.path}: no answer within ${timeoutMs} ms`)));
    r.on('error', reject);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';

/** A browser: cookie jars keyed by host name (ports do not separate cookies). */
export class Browser {
  readonly jars = new Map<string, Map<string, string>>();
  /** Cookies set with a Domain attribute (the hand-off browser id), by domain. */
  readonly domainJars = new Map<string, Map<string, string>>();
  constructor(readonly port: number) {}

  jar(hostname: string): Map<string, string> {
    let j = this.jars.get(hostname);
    if (!j) this.jars.set(hostname, (j = new Map()));
    return j;
  }

  /** A tab on `hostname` (e.g. "acme.localhost"); requests carry Host "<hostname>:<port>". */
  on(hostname: string): HostClient {
    return new HostClient(this, hostname);
  }
}

export class HostClient {
  constructor(
    readonly browser: Browser,
    readonly hostname: string,
  ) {}

  get host() {
    return `${this.hostname}:${this.browser.port}`;
  }
  get origin() {
    return `http://${this.host}`;
  }
  get cookies() {
    return this.browser.jar(this.hostname);
  }

  /**
   * Sends what the islands send: on /api/ calls X-Requested-With and this host's Origin unless
   * `raw`; JSON bodies with Content-Type application/json. `headers` override the defaults.
   */
  async request(
    method: string,
    path: string,
    opts: { json?: unknown; headers?: Record<string, string>; raw?: boolean; cookies?: boolean } = {},
  ): Promise<WorkerResponse> {
    const headers: Record<string, string> = { 'user-agent': UA };
    const domainCookies = [...this.browser.domainJars].filter(([d]) => this.hostname === d || this.hostname.endsWith(`.${d}`)).flatMap(([, j]) => [...j]);
    const sent = [...domainCookies, ...this.cookies];
    if (opts.cookies !== false && sent.length) headers.cookie = sent.map(([k, v]) => `${k}=${v}`).join('; ');
    if (path.includes('/api/') && !opts.raw) {
      headers['x-requested-with'] = 'XMLHttpRequest';
      headers.origin = this.origin;
    }
    let body: string | undefined;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] = 'application/json';
    }
    const res = await rawRequest(this.browser.port, { method, path, host: this.host, headers: { ...headers, ...opts.headers }, body });
    this.store(res.headers.getSetCookie());
    return res;
  }

  // A cookie with a Domain attribute goes to every host under that domain, as in a browser.
  private store(setCookies: string[]) {
    for (const c of setCookies) {
      const [pair = ''] = c.split(';');
      const i = pair.indexOf('=');
      const [name, value] = [pair.slice(0, i).trim(), pair.slice(i + 1).trim()];
      const domain = /;\s*domain=\.?([^;]+)/i.exec(c)?.[1]?.trim().toLowerCase();
      let jar = this.cookies;
      if (domain) {
        jar = this.browser.domainJars.get(domain) ?? new Map();
        this.browser.domainJars.set(domain, jar);
      }
      if (!value || /max-age=0|expires=Thu, 01 Jan 1970/i.test(c)) jar.delete(name);
      else jar.set(name, value);
    }
  }

  get(path: string, opts?: Parameters<HostClient['request']>[2]) {
    return this.request('GET', path, opts);
  }
  post(path: string, json?: unknown, opts?: Parameters<HostClient['request']>[2]) {
    return this.request('POST', path, { ...opts, json });
  }
  login(email: string, password = 'Portal-Demo-2026!', remember = false) {
    return this.post('/accounts/api/v2/login', { email, password, remember });
  }
}
