/**
 * A cache file SQLite cannot read is moved aside, never deleted: the user is told where it went, and
 * whoever supports them can still open it. Its -wal and -shm companions move with it under the same new
 * name, so the moved set still opens as one database.
 */
import { existsSync, renameSync } from 'node:fs';

export interface Recovery {
  /** Where the unreadable file now is. */
  movedTo: string;
  /** What SQLite said about it. */
  reason: string;
  /** One sentence for the user. */
  message: string;
}

/** Codes SQLite gives for a file that is not (or no longer) a sound database. */
const CORRUPTION = /^SQLITE_(NOTADB|CORRUPT)/;

export class CacheCorruptError extends Error {
  override name = 'CacheCorruptError';
}

export function isCorruption(e: unknown): boolean {
  if (e instanceof CacheCorruptError) return true;
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CORRUPTION.test(code);
}

/** `20250110T101112Z`: sorts by time and is valid in a file name on every platform. */
function stamp(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}

export function moveAside(file: string, reason: string, at: Date): Recovery {
  const base = `${file}.corrupt-${stamp(at)}`;
  let movedTo = base;
  for (let n = 2; existsSync(movedTo); n++) movedTo = `${base}-${n}`;
  renameSync(file, movedTo);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, movedTo + suffix);
  }
  return {
    movedTo,
    reason,
    message:
      `The local cache could not be used (${reason}). It was moved to ${movedTo} and a new, empty cache ` +
      'was started; sync again to fill it. Nothing was deleted.',
  };
}
