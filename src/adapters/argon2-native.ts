// Node: argon2id from @node-rs/argon2 (a prebuilt native module shipped in an npm package), on
// a pool of hashing threads that run at the lowest scheduling priority. The raw output is the
// same as the WebAssembly build's, so PHC strings verify on either runtime
// (tests/unit/password-hashing.test.ts).
//
// Why threads of their own, niced: a hash is ~10 ms of one core. Hashes on every core at normal
// priority leave the event loop queued behind them (measured: /healthz p99 64 ms during logins);
// hashes on one core fewer than the machine has cap logins at one core. Threads at nice 19 use
// every core the event loop leaves idle, and the kernel hands a core back to the event loop as
// soon as it has work: Linux applies a nice value set on a thread id to that thread alone.
// Where the priority cannot be set (not Linux, or a sandbox refusing it), the threads still hash,
// at normal priority; `ARGON2_CONCURRENCY` then bounds how many run at once.
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Argon2idFn } from '../domain/security/password-hashing';

export function defaultHashConcurrency(): number {
  const fromEnv = Number(process.env.ARGON2_CONCURRENCY);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : availableParallelism();
}

/** The lowest priority there is: the threads only take what the event loop leaves. */
const HASH_NICE = 19;

// CommonJS, evaluated in each thread; the module path comes from the main thread's resolution.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { hashRawSync } = require(workerData.argon2);
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  const os = require('node:os');
  os.setPriority(tid, workerData.nice);
  parentPort.postMessage({ priority: os.getPriority(tid) });
} catch {
  parentPort.postMessage({ priority: null });
}
parentPort.on('message', ({ id, password, salt, memoryCost, timeCost, parallelism, outputLen }) => {
  try {
    const out = hashRawSync(Buffer.from(password), { salt: Buffer.from(salt), memoryCost, timeCost, parallelism, outputLen, algorithm: 2 });
    const bytes = new Uint8Array(out);
    parentPort.postMessage({ id, bytes }, [bytes.buffer]);
  } catch (e) {
    parentPort.postMessage({ id, error: String(e && e.message || e) });
  }
});
`;

interface Job {
  id: number;
  message: Record<string, unknown>;
  resolve: (out: Uint8Array) => void;
  reject: (e: Error) => void;
}

export interface HashPool {
  hash: Argon2idFn;
  /** Each thread's nice value as the system reports it (null where it could not be set). */
  priorities: () => Promise<(number | null)[]>;
  close: () => Promise<void>;
}

/** `threads` hashing threads; jobs beyond them wait in order. Idle threads keep the process alive only while a job runs. */
export function createHashPool(threads = defaultHashConcurrency()): HashPool {
  const argon2 = createRequire(import.meta.url).resolve('@node-rs/argon2');
  const queue: Job[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job>();
  const priorities: Promise<number | null>[] = [];
  let nextId = 1;
  let closed = false;

  function spawn(): Worker {
    const w = new Worker(THREAD_SOURCE, { eval: true, workerData: { argon2, nice: HASH_NICE } });
    priorities.push(new Promise((resolve) => w.once('message', (m: { priority?: number | null }) => resolve(m.priority ?? null))));
    w.on('message', (m: { id?: number; bytes?: Uint8Array; error?: string }) => {
      const job = busy.get(w);
      if (m.id === undefined || !job || job.id !== m.id) return;
      busy.delete(w);
      if (m.error !== undefined) job.reject(new Error(`argon2id: ${m.error}`));
      else job.resolve(new Uint8Array(m.bytes!));
      release(w);
    });
    w.on('error', (e) => {
      // A thread that died takes its job with it; a new one takes its place.
      const job = busy.get(w);
      busy.delete(w);
      job?.reject(e);
      if (!closed) release(spawn());
    });
    w.unref();
    return w;
  }

  function release(w: Worker) {
    const job = queue.shift();
    if (job) run(w, job);
    else {
      w.unref();
      idle.push(w);
    }
  }

  function run(w: Worker, job: Job) {
    busy.set(w, job);
    w.ref(); // a hash in flight keeps the process alive until it answers
    w.postMessage({ id: job.id, ...job.message });
  }

  for (let i = 0; i < Math.max(1, threads); i++) idle.push(spawn());

  const hash: Argon2idFn = (p) =>
    new Promise<Uint8Array>((resolve, reject) => {
      if (closed) return reject(new Error('argon2id: the hashing threads are closed'));
      const job: Job = {
        id: nextId++,
        message: { password: p.password, salt: p.salt, memoryCost: p.memorySize, timeCost: p.passes, parallelism: p.parallelism, outputLen: p.tagLength },
        resolve,
        reject,
      };
      const w = idle.pop();
      if (w) run(w, job);
      else queue.push(job);
    });

  return {
    hash,
    priorities: () => Promise.all(priorities),
    close: async () => {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('argon2id: the hashing threads are closed'));
      await Promise.all([...idle, ...busy.keys()].map((w) => w.terminate()));
    },
  };
}

export async function loadArgon2Native(threads = defaultHashConcurrency()): Promise<Argon2idFn> {
  return createHashPool(threads).hash;
}
