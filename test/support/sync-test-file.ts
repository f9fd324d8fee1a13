/**
 * The setting of a sync test file: one real sandbox for the whole file, its settlement dates, and fresh cache files
 * in a folder of the file's own. Every cache opened through it is closed after its test; the sandbox and the folder
 * go after the file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { openSandbox, type OpenSandbox } from './sandbox';

export function syncTestFile(options: { settlementsPerDay: number; folder: string }) {
  let sb: OpenSandbox | undefined;
  let dates: string[] = [];
  let dir = '';
  let n = 0;
  const caches: Cache[] = [];

  beforeAll(async () => {
    sb = await openSandbox({ settlementsPerDay: options.settlementsPerDay });
    dates = sb.sandbox.fixtures().settlementDates;
    dir = mkdtempSync(join(tmpdir(), options.folder));
  });
  afterEach(() => caches.splice(0).forEach((c) => c.close()));
  afterAll(async () => {
    await sb?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const closedAfterTest = (cache: Cache): Cache => {
    caches.push(cache);
    return cache;
  };
  return {
    get sb(): OpenSandbox {
      if (!sb) throw new Error('The sandbox starts in beforeAll: use it inside a test');
      return sb;
    },
    /** The sandbox's settlement dates, oldest first. */
    get dates(): string[] {
      return dates;
    },
    /** The file's own folder. */
    get dir(): string {
      return dir;
    },
    /** A new, empty cache file, closed after the test. */
    freshCache: () => closedAfterTest(openCache(join(dir, `cache-${++n}.sqlite`))),
    /** Another connection to a cache (or any cache), closed after the test. */
    closedAfterTest,
  };
}
