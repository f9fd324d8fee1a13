/**
 * The harness's builds, each kept under test-results/harness/ by a key made of every input it is built from: the test
 * files of one run (separate processes) and later runs with unchanged sources share one build, while any change to
 * an input or to the installed packages builds afresh.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileSystemNow } from '../../electron/export/atomic-file';
import { filePathsUnder } from '../support/files';
import { HARNESS_CACHE, REPO_ROOT } from './paths';

const PACKAGES = ['package-lock.json', 'node_modules/.package-lock.json'];
const STALE_AFTER_MS = 60 * 60 * 1000;

/** `inputs`: files and folders, relative to the repository's root; a folder stands for every file under it. */
function inputsKey(inputs: readonly string[]): string {
  const files = [...inputs, ...PACKAGES]
    .map((input) => join(REPO_ROOT, input))
    .filter((path) => existsSync(path))
    .flatMap((path) => (statSync(path).isDirectory() ? filePathsUnder(path) : [path]))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(relative(REPO_ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/**
 * The folder of the build `name` of these inputs: `build` writes it into the (empty) folder it is given, once; a
 * build of the same inputs already there is reused. The folder appears whole or not at all (renamed into place).
 */
export async function cachedBuild(
  name: string,
  inputs: readonly string[],
  build: (outDir: string) => Promise<void>,
): Promise<string> {
  mkdirSync(HARNESS_CACHE, { recursive: true });
  const dir = join(HARNESS_CACHE, `${name}-${inputsKey(inputs)}`);
  if (existsSync(dir)) return dir;
  const staging = mkdtempSync(join(HARNESS_CACHE, 'staging-'));
  await build(staging);
  try {
    renameSync(staging, dir);
  } catch (error) {
    // Another test process finished the same build first; its copy is identical.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(dir)) throw error;
  }
  pruneStale(name, dir);
  return dir;
}

/** Other builds of `name`, and stagings, untouched for an hour by the file system's clock (which stamps them). */
function pruneStale(name: string, keep: string): void {
  const now = fileSystemNow(HARNESS_CACHE);
  if (now === null) return;
  for (const entry of readdirSync(HARNESS_CACHE)) {
    const path = join(HARNESS_CACHE, entry);
    const ours = entry.startsWith(`${name}-`) || entry.startsWith('staging-');
    if (path !== keep && ours && now - statSync(path).mtimeMs > STALE_AFTER_MS) {
      rmSync(path, { recursive: true, force: true });
    }
  }
}
