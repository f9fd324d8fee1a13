/**
 * File-system and SQLite failures in words a treasury user can act on. Their own text ("SQLITE_ERROR: no such
 * table", "EISDIR: illegal operation on a directory, read") names internals and none of what to do.
 */
const REASONS: Record<string, string> = {
  EACCES: 'the app is not allowed to read or write it',
  EPERM: 'the app is not allowed to read or write it',
  EISDIR: 'a folder stands where a file belongs',
  ENOTDIR: 'a file stands where a folder belongs',
  ENOENT: 'it no longer exists',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the disk is read-only',
  EMFILE: 'too many files are open',
  ELOOP: 'it is a loop of symbolic links',
  EBUSY: 'another program is using it',
  SQLITE_BUSY: 'another program is using it',
  SQLITE_LOCKED: 'another program is using it',
  SQLITE_FULL: 'the disk is full',
  SQLITE_READONLY: 'it cannot be written',
  SQLITE_CANTOPEN: 'it cannot be opened',
  SQLITE_CORRUPT: 'it is damaged',
  SQLITE_NOTADB: 'it is not a database',
  SQLITE_IOERR: 'the disk reported an error',
  SQLITE_PERM: 'the app is not allowed to read or write it',
};

/** Every SQLite code (`SQLITE_IOERR_SHORT_READ` is an `SQLITE_IOERR`) and every errno-style code. */
const STORAGE_CODE = /^(SQLITE_[A-Z_]+|E[A-Z]{2,})$/;

export function isStorageError(e: unknown): e is Error & { code: string; path?: string } {
  const code = (e as { code?: unknown } | null)?.code;
  return e instanceof Error && typeof code === 'string' && STORAGE_CODE.test(code);
}

/** Why a storage error happened, in plain words ("the disk is full"). */
export function storageReason(e: Error & { code: string }): string {
  const base = e.code.startsWith('SQLITE_') ? e.code.split('_').slice(0, 2).join('_') : e.code;
  return REASONS[e.code] ?? REASONS[base] ?? 'the database could not carry out the request';
}

/** One sentence for a storage error: what could not be used, where, and why in plain words. */
export function describeStorageError(e: Error & { code: string; path?: string }): string {
  const where = typeof e.path === 'string' ? ` (${e.path})` : '';
  return `The console's local files could not be used${where}: ${storageReason(e)}.`;
}
