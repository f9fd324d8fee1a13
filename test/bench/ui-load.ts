/**
 * A busy machine for the UI bench (issue 33 item 8): one worker thread per core spinning on a fixed workload (SHA-256
 * over a fixed buffer), as a virus scan or a build would hold the cores. Bounded twice: each worker stops by itself
 * after LOAD_MAX_MS, and `stop()` (called in a `finally`) terminates them at once.
 */
import { Worker } from 'node:worker_threads';

/** No measured series runs this long; a bench that died without its `finally` leaves no spinning thread behind. */
const LOAD_MAX_MS = 15 * 60_000;
/** The two cores of the machines the targets are for (a desk laptop, the shared bench machine). */
export const LOAD_THREADS = 2;

const SPIN = `
const { createHash } = require('node:crypto');
const { workerData } = require('node:worker_threads');
const buffer = Buffer.alloc(64 * 1024, 7);
const until = performance.now() + workerData.maxMs;
while (performance.now() < until) createHash('sha256').update(buffer).digest();
`;

export interface Load {
  threads: number;
  stop(): Promise<void>;
}

export function startLoad(threads = LOAD_THREADS): Load {
  const workers = Array.from(
    { length: threads },
    () => new Worker(SPIN, { eval: true, workerData: { maxMs: LOAD_MAX_MS } }),
  );
  return {
    threads,
    stop: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
