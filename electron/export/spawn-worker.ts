/**
 * Starts the export worker. A built app runs `export-worker.js`, which electron-vite writes beside the main
 * bundle (inside app.asar when packaged: Electron reads the archive in worker threads since electron/electron#33216);
 * from sources (tests, `npm run cli`) the worker registers tsx first, so it runs the same TypeScript.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ExportJob } from './run-export';

/**
 * An export makes many small, short-lived objects (a row's cells, its XML) and keeps almost none: a small young
 * generation collects them sooner, which kept a million-row export's peak memory about 50 MB lower at the same
 * speed (test/bench/export.ts).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

export function spawnExportWorker(job: ExportJob): Worker {
  const built = new URL('./export-worker.js', import.meta.url);
  if (import.meta.url.endsWith('.js') && existsSync(fileURLToPath(built))) {
    return new Worker(built, { workerData: job, resourceLimits: WORKER_LIMITS });
  }
  const source = JSON.stringify(new URL('./worker.ts', import.meta.url).href);
  return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${source}); });`, {
    eval: true,
    workerData: job,
    resourceLimits: WORKER_LIMITS,
  });
}
