/**
 * Starts the export worker. A built app runs `export-worker.js`, which electron-vite writes beside the main
 * bundle; from sources (tests, `npm run cli`) the worker registers tsx first, so it runs the same TypeScript.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ExportJob } from './run-export';

export function spawnExportWorker(job: ExportJob): Worker {
  const built = new URL('./export-worker.js', import.meta.url);
  if (import.meta.url.endsWith('.js') && existsSync(fileURLToPath(built))) {
    return new Worker(built, { workerData: job });
  }
  const source = JSON.stringify(new URL('./worker.ts', import.meta.url).href);
  return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${source}); });`, {
    eval: true,
    workerData: job,
  });
}
