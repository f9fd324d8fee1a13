/**
 * The files the command line is pointed at: its data folder (`--data-dir`) and the files a command reads. Each is
 * checked before anything is started or read, and a path it cannot use is bad input (exit 2) said in a sentence,
 * never a raw `EACCES` and never a hang: a folder in /proc, an unwritable folder, another account's folder (which
 * root could otherwise take over), a 300 MB file read whole only to be refused.
 */
import { closeSync, openSync, readSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { SHEET_MAX_BYTES } from '../import/sheet-reader';
import { UnsafePathError, ensurePrivateDir } from '../private-files';
import { isStorageError, storageReason } from '../storage-errors';
import { InputError } from './io';

/** Why a path could not be used, in words; `missing` says what ENOENT means for this use. */
function reasonOf(e: unknown, missing: string): string {
  if (e instanceof UnsafePathError) return e.message.replace(/\.$/, '');
  if (isStorageError(e)) return e.code === 'ENOENT' ? missing : storageReason(e);
  return e instanceof Error ? e.message : String(e);
}

/** Makes the data folder private, as the app does, and proves a file can be made in it. */
export function prepareDataDir(dir: string): void {
  try {
    ensurePrivateDir(dir);
    const probe = join(dir, `.write-check-${process.pid}`);
    closeSync(openSync(probe, 'wx', 0o600));
    unlinkSync(probe);
  } catch (e) {
    throw new InputError(`The data folder ${dir} cannot be used: ${reasonOf(e, 'a folder cannot be made there')}.`);
  }
}

/** Bytes a command reads from one file: import sheets, statements, id lists and states alike. */
export const INPUT_MAX_BYTES = SHEET_MAX_BYTES;

/**
 * The bytes of the file `path` (`what` names it in the refusal), at most `maxBytes`. It is looked at before it is
 * opened: what is not a regular file (a FIFO would block the open, a device never ends) or is too large is refused
 * unread; the read then stops past the limit whatever the size said (a file still growing).
 */
export function readInputFile(path: string, what: string, maxBytes: number = INPUT_MAX_BYTES): Buffer {
  const limit = `${(maxBytes / (1024 * 1024)).toLocaleString('en-IN')} MB`;
  const tooLarge = () => new InputError(`${what} ${path} is larger than ${limit}, the most the console reads.`);
  let fd: number | undefined;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new InputError(`${what} ${path} is not a file.`);
    if (stat.size > maxBytes) throw tooLarge();
    fd = openSync(path, 'r');
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      if ((length += n) > maxBytes) throw tooLarge();
    }
    return Buffer.concat(chunks, length);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${what} ${path} cannot be read: ${reasonOf(e, 'it does not exist')}.`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
