/**
 * Bundles bridge-entry.ts for the browser with vite, in memory. The page then runs the real `createIpcApi`
 * from shared/ipc/client.ts, not a copy that could drift from what the preload exposes.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { REPO_ROOT } from './paths';

const ENTRY = fileURLToPath(new URL('./bridge-entry.ts', import.meta.url));

async function bundle(): Promise<string> {
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
      lib: { entry: ENTRY, formats: ['iife'], name: 'harnessBridge', fileName: () => 'bridge.js' },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const output of outputs) {
    if (!('output' in output)) continue;
    const chunk = output.output.find((item) => item.type === 'chunk');
    if (chunk && chunk.type === 'chunk') return chunk.code;
  }
  throw new Error('vite produced no bridge bundle');
}

let pending: Promise<string> | undefined;

export function bridgeScript(): Promise<string> {
  pending ??= bundle();
  return pending;
}
