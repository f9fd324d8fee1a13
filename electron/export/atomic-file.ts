/**
 * An export's file is written under a temporary name beside the final one and renamed at the end: a cancelled,
 * failed or crashed export never leaves a half file under the name the user chose (at most a hidden `.part`
 * file, which the next export of the same name replaces).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, renameSync, rmSync, type WriteStream } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface AtomicFile {
  readonly stream: WriteStream;
  readonly tempPath: string;
  /** Moves the finished file to its final name (replacing one the user agreed to overwrite). */
  commit(): void;
  /** Removes the temporary file; safe to call after anything. */
  discard(): void;
}

export function openAtomicFile(finalPath: string): AtomicFile {
  mkdirSync(dirname(finalPath), { recursive: true });
  const tempPath = join(dirname(finalPath), `.${basename(finalPath)}.${randomBytes(4).toString('hex')}.part`);
  const stream = createWriteStream(tempPath, { flags: 'wx' });
  return {
    stream,
    tempPath,
    commit: () => renameSync(tempPath, finalPath),
    discard: () => {
      stream.destroy();
      rmSync(tempPath, { force: true });
    },
  };
}
