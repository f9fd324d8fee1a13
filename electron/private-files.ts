/**
 * The data folder holds settings, caches of settlements and beneficiaries, logs and exports: what other accounts on
 * the machine must not read, and where a planted link must not send our writes. Every path that creates a folder or
 * file there goes through here: folders 0700, files 0600, and a symbolic link where ours should be is refused.
 * (Windows ignores POSIX modes; there the per-user profile folder's ACL is what protects the data folder.)
 */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export class UnsafePathError extends Error {
  override name = 'UnsafePathError';
  readonly code = 'UNSAFE_PATH';
}

function kindOf(path: string): 'missing' | 'file' | 'dir' | 'link' | 'other' {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return 'link';
    if (stat.isDirectory()) return 'dir';
    return stat.isFile() ? 'file' : 'other';
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw e;
  }
}

/**
 * Creates `dir` and its missing parents one level at a time. Node's own `recursive` loops for ever where mkdir
 * answers ENOENT under a parent that exists (a folder in /proc), which hung the CLI given `--data-dir /proc/1/x`.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let d = dir; kindOf(d) === 'missing' && dirname(d) !== d; d = dirname(d)) missing.unshift(d);
  for (const d of missing) mkdirSync(d, { mode: PRIVATE_DIR_MODE });
}

/** The sticky bit: a folder every account writes in but none removes another's files from (/tmp, /var/tmp). */
const STICKY = 0o1000;

/**
 * Creates `dir` (and its parents) 0700 and tightens it to 0700 if it exists; refuses a link or a file in its place,
 * and a folder another account owns: run as root, tightening it would lock its owner out of their own folder.
 * A sticky folder is left as it is: it is shared by design, and tightening /tmp (root's own) would lock every other
 * account out of it. What the app writes there is still private, each file 0600 (`ensurePrivateFile`).
 */
export function ensurePrivateDir(dir: string): void {
  const kind = kindOf(dir);
  if (kind === 'link') throw new UnsafePathError(`${dir} is a symbolic link; the app does not write through links.`);
  if (kind !== 'missing' && kind !== 'dir') throw new UnsafePathError(`${dir} should be a folder but is a file.`);
  if (kind === 'dir') {
    const stat = lstatSync(dir);
    if (process.getuid && stat.uid !== process.getuid()) {
      throw new UnsafePathError(
        `${dir} belongs to another account (user id ${stat.uid}); the app keeps its data only in folders of the account it runs as.`,
      );
    }
    if (stat.mode & STICKY) return;
  }
  makeDirs(dir);
  if (process.platform !== 'win32') chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Makes sure `file` is a regular file of ours, 0600: created empty if missing (before a library such as SQLite creates
 * it with the process's default mode), tightened if it exists. A link or a folder in its place is refused.
 */
export function ensurePrivateFile(file: string): void {
  const kind = kindOf(file);
  if (kind === 'link') throw new UnsafePathError(`${file} is a symbolic link; the app does not write through links.`);
  if (kind === 'dir' || kind === 'other') throw new UnsafePathError(`${file} should be a file but is not.`);
  if (kind === 'missing') closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
  if (process.platform !== 'win32') chmodSync(file, PRIVATE_FILE_MODE);
}
