/** Starts the export worker: `export-worker.js` beside the built main bundle, or worker.ts from sources. */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../module-worker';
import type { ExportJob } from './run-export';

/**
 * An export makes many small, short-lived objects (a row's cells, its XML) and keeps almost none: a small young
 * generation collects them sooner, which kept a million-row export's peak memory about 50 MB lower at the same
 * speed (test/bench/export.ts).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

export function spawnExportWorker(job: ExportJob): Worker {
  return startModuleWorker(new URL('./export-worker.js', import.meta.url), new URL('./worker.ts', import.meta.url), {
    workerData: job,
    resourceLimits: WORKER_LIMITS,
  });
}
