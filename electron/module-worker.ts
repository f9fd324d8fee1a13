/**
 * Starts a worker thread on one of our TypeScript modules. A built app runs the module's bundle, which
 * electron-vite writes beside the main bundle (each worker is an entry in electron.vite.config.ts; inside app.asar
 * when packaged: Electron reads the archive in worker threads since electron/electron#33216); from sources (tests,
 * `npm run cli`) the worker registers tsx first, so it runs the same TypeScript.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `built`: the bundle's URL beside the caller's; `source`: the module's own URL. */
export function startModuleWorker(built: URL, source: URL, options: WorkerOptions): Worker {
  if (import.meta.url.endsWith('.js') && existsSync(fileURLToPath(built))) return new Worker(built, options);
  const href = JSON.stringify(source.href);
  return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${href}); });`, {
    ...options,
    eval: true,
  });
}
