/**
 * Builds `renderer/` exactly as `npm run build` does, by asking electron-vite for the renderer config of
 * electron.vite.config.ts (its plugins plus electron-vite's presets), only with another output folder.
 *
 * The result is kept under a key made of every input (build-cache.ts), so the test files of one run (separate
 * processes) and later runs with unchanged sources share one build, while any change to the renderer, `shared/`,
 * the config or the installed packages builds afresh. `npm test` therefore needs no `npm run build` first.
 */
import { join } from 'node:path';
import { cachedBuild } from './build-cache';
import { REPO_ROOT } from './paths';

const INPUTS = ['renderer', 'shared', 'electron.vite.config.ts', 'test/harness/renderer-build.ts'];

async function buildInto(outDir: string): Promise<void> {
  // Imported only to build: a test process that finds the build made loads neither (each takes a second or so).
  const [{ resolveConfig }, { build }] = await Promise.all([import('electron-vite'), import('vite')]);
  // electron-vite's resolveConfig sets NODE_ENV for the build; the test process must keep its own.
  const nodeEnv = process.env['NODE_ENV'];
  try {
    const { config: { renderer } = {} } = await resolveConfig(
      { root: REPO_ROOT, configFile: join(REPO_ROOT, 'electron.vite.config.ts'), logLevel: 'warn' },
      'build',
      'production',
    );
    if (!renderer) throw new Error('electron.vite.config.ts has no renderer config');
    await build({
      ...renderer,
      logLevel: 'warn',
      clearScreen: false,
      build: { ...renderer.build, outDir, emptyOutDir: true },
    });
  } finally {
    process.env['NODE_ENV'] = nodeEnv;
  }
}

let pending: Promise<string> | undefined;

/** The folder holding the built renderer (index.html and assets/). */
export function builtRenderer(): Promise<string> {
  pending ??= cachedBuild('renderer', INPUTS, buildInto);
  return pending;
}
