/**
 * Starts a worker thread on one of our TypeScript modules. A built app runs the module's bundle, which
 * electron-vite writes beside the main bundle (each worker is an entry in electron.vite.config.ts; inside app.asar
 * when packaged: Electron reads the archive in worker threads since electron/electron#33216); from sources (tests,
 * `npm run cli`) the worker registers tsx first, so it runs the same TypeScript.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * `built`: the bundle's URL beside the caller's; `source`: the module's own URL. `fromSources: 'commonjs'` loads
 * the sources through tsx's CommonJS hook, in the worker's own thread, for a module whose imports use no
 * `import.meta`: tsx's ESM loader costs the process about 20 MB more per worker (a sync's writer thread measured
 * 42–46 MB through it, 21–35 MB through the CommonJS hook, 24 MB built), which a benchmark's peak RSS shows.
 */
export function startModuleWorker(
  built: URL,
  source: URL,
  options: WorkerOptions,
  fromSources: 'esm' | 'commonjs' = 'esm',
): Worker {
  if (import.meta.url.endsWith('.js') && existsSync(fileURLToPath(built))) return new Worker(built, options);
  const path = JSON.stringify(fileURLToPath(source));
  const href = JSON.stringify(source.href);
  const start =
    fromSources === 'commonjs'
      ? `require('tsx/cjs/api').register(); require(${path});`
      : `import('tsx/esm/api').then(({ register }) => { register(); return import(${href}); });`;
  return new Worker(start, { ...options, eval: true });
}
