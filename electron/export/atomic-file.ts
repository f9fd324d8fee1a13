/**
 * An export's file is written under a temporary name beside the final one and renamed at the end: a cancelled,
 * failed or crashed export never leaves a half file under the name the user chose (at most a hidden `.part`
 * file, which the next export of the same name replaces).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, renameSync, rmSync, type WriteStream } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files';

export interface AtomicFile {
  readonly stream: WriteStream;
  readonly tempPath: string;
  /** Moves the finished file to its final name (replacing one the user agreed to overwrite). */
  commit(): void;
  /** Removes the temporary file; safe to call after anything. */
  discard(): void;
}

export function openAtomicFile(finalPath: string): AtomicFile {
  // A folder made here is private; one the user chose keeps its own mode. The file is the user's alone (0600).
  mkdirSync(dirname(finalPath), { recursive: true, mode: PRIVATE_DIR_MODE });
  const tempPath = join(dirname(finalPath), `.${basename(finalPath)}.${randomBytes(4).toString('hex')}.part`);
  const stream = createWriteStream(tempPath, { flags: 'wx', mode: PRIVATE_FILE_MODE });
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
