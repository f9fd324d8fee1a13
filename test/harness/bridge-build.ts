/**
 * Bundles bridge-entry.ts for the browser with vite. The page then runs the real `createIpcApi` from
 * shared/ipc/client.ts, not a copy that could drift from what the preload exposes. Kept as the renderer's build is
 * (build-cache.ts): bundled once for the test files of a run, again when the entry, `shared/` or the packages change.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedBuild } from './build-cache';
import { REPO_ROOT } from './paths';

const ENTRY = fileURLToPath(new URL('./bridge-entry.ts', import.meta.url));
const INPUTS = ['test/harness/bridge-entry.ts', 'shared', 'test/harness/bridge-build.ts'];
const BUNDLE = 'bridge.js';

async function bundleInto(outDir: string): Promise<void> {
  // Imported only to bundle: a test process that finds the bundle made does not load vite.
  const { build } = await import('vite');
  const result = await build({
    configFile: false,
    root: REPO_ROOT,
    publicDir: false,
    logLevel: 'warn',
    clearScreen: false,
    build: {
      write: false,
      minify: false,
      target: 'es2022',
      lib: { entry: ENTRY, formats: ['iife'], name: 'harnessBridge', fileName: () => BUNDLE },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const output of outputs) {
    if (!('output' in output)) continue;
    const chunk = output.output.find((item) => item.type === 'chunk');
    if (chunk && chunk.type === 'chunk') return writeFileSync(join(outDir, BUNDLE), chunk.code);
  }
  throw new Error('vite produced no bridge bundle');
}

let pending: Promise<string> | undefined;

export function bridgeScript(): Promise<string> {
  pending ??= cachedBuild('bridge', INPUTS, bundleInto).then((dir) => readFileSync(join(dir, BUNDLE), 'utf8'));
  return pending;
}
