// One load run, in a process of its own: bench/run.ts starts one per scenario, so no scenario's
// generator carries the heap, histograms or JIT state of the ones before it (autocannon in the
// bench's own process measured later scenarios with its garbage collection in their latency).
// Protocol over stdio: the job as JSON in argv[2]; after the warm-up this prints "warm" and waits
// for a line on stdin; then it runs the measured load (and the probe, at the same time) and
// prints one line of JSON: { result, probe, samples }.
import autocannon, { type Options, type Result } from 'autocannon';
import { once } from 'node:events';

export interface LoadJob {
  url: string;
  connections: number;
  duration: number;
  warmup: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Request bodies, used in turn (writes); reads have none. */
  bodies?: string[];
  probe?: { path: string; headers: Record<string, string>; connections: number };
}

export interface LoadOutput {
  result: Result;
  probe: Result | null;
  samples: string[];
}

const job = JSON.parse(process.argv[2]!) as LoadJob;
const samples: string[] = [];
let next = 0;

const options = (duration: number): Options => ({
  url: job.url,
  connections: job.connections,
  duration,
  timeout: 30,
  requests: [
    {
      method: job.method,
      path: job.path,
      headers: job.headers,
      // Writes keep the first refused answers (a 429 says why). Reads get no callback: one on every
      // response (its headers made into an object) is generator work on the cores the server uses;
      // bench/run.ts samples a read's answer after the run instead.
      ...(job.bodies
        ? {
            setupRequest: (r: object) => ({ ...r, body: job.bodies![next++ % job.bodies!.length] }),
            onResponse: (status: number, body: string) => {
              if ((status < 200 || status > 299) && samples.length < 5) samples.push(`${status} ${String(body).slice(0, 200)}`);
            },
          }
        : {}),
    },
  ],
});

if (job.warmup > 0) await autocannon(options(job.warmup));
samples.length = 0;
process.stdout.write('warm\n');
process.stdin.setEncoding('utf8');
await once(process.stdin, 'data');
const probeRun = job.probe
  ? autocannon({ url: job.url, connections: job.probe.connections, duration: job.duration, timeout: 30, requests: [{ method: 'GET', path: job.probe.path, headers: job.probe.headers }] })
  : null;
const result = await autocannon(options(job.duration));
const probe = probeRun ? await probeRun : null;
process.stdout.write(`${JSON.stringify({ result, probe, samples } satisfies LoadOutput)}\n`);
process.exit(0);
