/**
 * Where Electron finds its own build of better-sqlite3.
 *
 * node_modules/better-sqlite3 holds the Node-ABI build that tests and the CLI load; Electron needs one built for its
 * ABI, which `scripts/electron-native.mjs` puts in `.electron-native/` and the packager copies to
 * `resources/native/`. keytar needs no second build: it is an N-API addon, whose ABI is the same in Node and Electron.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function projectRoot(): string {
  // The bundle lives in out/main/ (or a chunk below it); the project root is the nearest folder with package.json.
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Cannot find the project root (no package.json above the main bundle).');
    dir = parent;
  }
  return dir;
}

/**
 * The path to pass as better-sqlite3's `nativeBinding` option: undefined under Node (the default build is right),
 * the Electron-ABI build under Electron.
 */
export function sqliteNativeBinding(): string | undefined {
  const electronVersion = process.versions.electron;
  if (!electronVersion) return undefined;
  // `defaultApp` is set when Electron runs an unpackaged folder (`electron .`), as in development.
  if (process.defaultApp) {
    // The folder scripts/electron-native.mjs writes to.
    const folder = `${electronVersion}-${process.platform}-${process.arch}`;
    const binding = join(projectRoot(), '.electron-native', folder, 'better_sqlite3.node');
    if (!existsSync(binding)) {
      throw new Error(`No Electron build of better-sqlite3 at ${binding}. Run: node scripts/electron-native.mjs`);
    }
    return binding;
  }
  const binding = join(process.resourcesPath, 'native', 'better_sqlite3.node');
  if (!existsSync(binding)) {
    throw new Error(`This package lacks ${binding}; it was packed without scripts/before-pack.cjs.`);
  }
  return binding;
}
