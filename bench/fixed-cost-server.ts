// Reference point for the screens' p99 (bench/run.ts): a plain node:http server that spends a fixed
// CPU time on every request and answers a page-sized body. Under the screens' closed-loop load its
// latency has no variance of its own, so its p99 shows what the load shape alone gives.
import { createServer } from 'node:http';

const cpuMs = Number(process.env.FIXED_CPU_MS ?? 0.5);
const body = Buffer.from('x'.repeat(20 * 1024));
const port = Number(process.env.PORT ?? 8789);

createServer((_req, res) => {
  const until = performance.now() + cpuMs;
  while (performance.now() < until) {
    // the request's work: CPU only, the same every time
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8', 'content-length': body.length });
  res.end(body);
}).listen(port, process.env.HOST ?? '127.0.0.1', () => console.log(`fixed-cost server ready on ${port}`));
