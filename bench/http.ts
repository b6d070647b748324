// HTTP to 127.0.0.1 with a Host header (Node's fetch does not resolve *.localhost: DESIGN.md 10),
// for the benchmarks' own requests (sign-ins, probes of round trips).
import { request as httpRequest } from 'node:http';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** The render time a page reports in dev mode (`Server-Timing: render;dur=<ms>`), or null. */
export function renderDuration(reply: Reply): number | null {
  const dur = /render;dur=([\d.]+)/.exec(String(reply.headers['server-timing'] ?? ''));
  return dur ? Number(dur[1]) : null;
}

export function call(port: number, host: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`timeout: ${method} ${path}`)));
    req.end(body);
  });
}
