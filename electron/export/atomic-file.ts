/**
 * An export's files are written under temporary names beside the final ones and renamed together at the end: a
 * cancelled, failed or crashed export never leaves a half file under a name the user chose, and a failed or
 * cancelled one leaves nothing at all (a temporary file is removed only once its stream has closed, since a stream
 * still opening would create the file again after an early removal).
 *
 * A temporary name carries the writing process's id: `.<final name>.<pid>-<random>.part`. A crash can still leave
 * one behind, so each export first removes the temporary files of ours in its folder whose process is gone (and
 * those of the earlier `.<final name>.<random>.part` form, which no running version writes). Files of a process that
 * is alive are left alone: that may be another export running now — unless the file has not been written for an
 * hour. A running export writes continuously, and a process id is reused after its process dies, so a live id alone
 * does not keep a crashed export's file forever. That hour is read on the file system's own clock, from a file made
 * there for the purpose: a network share stamps files with its server's time, and a clock set apart from it (or the
 * tests' faketime) made a second export remove the first one's file as it was being written.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, readdirSync, renameSync, rmSync, statSync, writeFileSync, type WriteStream } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PRIVATE_FILE_MODE, makeDirs } from '../private-files';

export interface AtomicFile {
  readonly stream: WriteStream;
  readonly tempPath: string;
  /** Moves the finished file to its final name (replacing one the user agreed to overwrite). */
  commit(): void;
  /** Stops writing and removes the temporary file once the stream has closed; safe to call after anything. */
  discard(): Promise<void>;
}

const OUR_PART = /^\..+\.(?:(\d+)-)?[0-9a-f]{8}\.part$/;

/** A temporary file untouched this long belongs to no running export, whatever its process id says. */
export const ABANDONED_PART_MS = 60 * 60 * 1000;

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but is not ours to signal.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A temporary name of ours for `finalName` in `dir`. */
const partPath = (dir: string, finalName: string) =>
  join(dir, `.${finalName}.${process.pid}-${randomBytes(4).toString('hex')}.part`);

/**
 * What the file system's clock says now, in `dir`: the time it stamps on a file made there (of our temporary form, so
 * that a crash between the two calls leaves nothing the next export does not remove). Null when nothing can be made
 * there; no file is then old enough to remove on its time alone.
 */
export function fileSystemNow(dir: string): number | null {
  const probe = partPath(dir, 'clock');
  try {
    writeFileSync(probe, '', { flag: 'wx', mode: PRIVATE_FILE_MODE });
    return statSync(probe).mtimeMs;
  } catch {
    return null;
  } finally {
    rmSync(probe, { force: true });
  }
}

function untouchedSince(path: string, since: number): boolean {
  try {
    return statSync(path).mtimeMs < since;
  } catch {
    return false;
  }
}

/**
 * Removes the temporary files of exports that can no longer finish; returns their names. `now` is on the file
 * system's clock (fileSystemNow; a test pins it).
 */
export function removeStaleParts(dir: string, now: number | null = fileSystemNow(dir)): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const match = OUR_PART.exec(name);
    if (!match) continue;
    const path = join(dir, name);
    const abandoned = now !== null && untouchedSince(path, now - ABANDONED_PART_MS);
    if (match[1] !== undefined && isAlive(Number(match[1])) && !abandoned) continue;
    try {
      rmSync(path, { force: true });
      removed.push(name);
    } catch {
      // Someone else's to remove (permissions, a file in use on Windows): the next export tries again.
    }
  }
  return removed;
}

export function openAtomicFile(finalPath: string): AtomicFile {
  const dir = dirname(finalPath);
  // A folder made here is private; one the user chose keeps its own mode. The file is the user's alone (0600).
  makeDirs(dir);
  const tempPath = partPath(dir, basename(finalPath));
  const stream = createWriteStream(tempPath, { flags: 'wx', mode: PRIVATE_FILE_MODE });
  // An open that fails is reported by the writer through its own listener; this one only keeps it from crashing
  // the process when the file is discarded before a writer was attached.
  stream.on('error', () => {});
  return {
    stream,
    tempPath,
    commit: () => renameSync(tempPath, finalPath),
    discard: () =>
      new Promise<void>((resolve) => {
        const remove = () => {
          try {
            rmSync(tempPath, { force: true });
          } finally {
            resolve();
          }
        };
        if (stream.closed) remove();
        else {
          stream.once('close', remove);
          stream.destroy();
        }
      }),
  };
}

/**
 * The files of one export, all committed or all discarded: a split CSV's numbered parts and its provenance
 * sidecar appear together or not at all.
 */
export function openOutputs() {
  const files: { final: string; file: AtomicFile }[] = [];
  return {
    open(finalPath: string): AtomicFile {
      const file = openAtomicFile(finalPath);
      files.push({ final: finalPath, file });
      return file;
    },
    /** Renames every file to its final name; the final names, in the order they were opened. */
    commit(): string[] {
      for (const f of files) f.file.commit();
      return files.map((f) => f.final);
    },
    async discard(): Promise<void> {
      await Promise.all(files.map((f) => f.file.discard()));
    },
  };
}
export type Outputs = ReturnType<typeof openOutputs>;
