/**
 * Builds `renderer/` exactly as `npm run build` does, by asking electron-vite for the renderer config of
 * electron.vite.config.ts (its plugins plus electron-vite's presets), only with another output folder.
 *
 * The result is kept under a key made of every input, so the test files of one run (separate processes) and
 * later runs with unchanged sources share one build, while any change to the renderer, `shared/`, the config
 * or the installed packages builds afresh. `npm test` therefore needs no `npm run build` first.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { resolveConfig } from 'electron-vite';
import { build } from 'vite';
import { filePathsUnder } from '../support/files';
import { HARNESS_CACHE, REPO_ROOT } from './paths';

const INPUT_FOLDERS = ['renderer', 'shared'];
const INPUT_FILES = ['electron.vite.config.ts', 'package-lock.json', 'node_modules/.package-lock.json'];
const STALE_AFTER_MS = 60 * 60 * 1000;

function inputsKey(): string {
  const files = [
    ...INPUT_FOLDERS.flatMap((folder) => filePathsUnder(join(REPO_ROOT, folder))),
    ...INPUT_FILES.map((file) => join(REPO_ROOT, file)).filter((file) => existsSync(file)),
    new URL(import.meta.url).pathname,
  ].sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(relative(REPO_ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

async function buildInto(outDir: string): Promise<void> {
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

function pruneStale(keep: string): void {
  for (const name of readdirSync(HARNESS_CACHE)) {
    const path = join(HARNESS_CACHE, name);
    // eslint-disable-next-line no-restricted-syntax -- compares real file times: old builds go, whatever the tests' day
    if (path !== keep && /^(renderer|staging)-/.test(name) && Date.now() - statSync(path).mtimeMs > STALE_AFTER_MS) {
      rmSync(path, { recursive: true, force: true });
    }
  }
}

async function buildOnce(): Promise<string> {
  mkdirSync(HARNESS_CACHE, { recursive: true });
  const dir = join(HARNESS_CACHE, `renderer-${inputsKey()}`);
  if (existsSync(join(dir, 'index.html'))) return dir;
  const staging = mkdtempSync(join(HARNESS_CACHE, 'staging-'));
  await buildInto(staging);
  try {
    renameSync(staging, dir);
  } catch (error) {
    // Another test process finished the same build first; its copy is identical.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(dir, 'index.html'))) throw error;
  }
  pruneStale(dir);
  return dir;
}

let pending: Promise<string> | undefined;

/** The folder holding the built renderer (index.html and assets/). */
export function builtRenderer(): Promise<string> {
  pending ??= buildOnce();
  return pending;
}
