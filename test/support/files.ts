/** Files on disk, for tests and the harness. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The path of every file under `dir`, recursively (folders themselves left out). */
export function filePathsUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}
