/**
 * Verifying a journal: the chain recomputed from the first entry, naming the first that does not hold — a changed
 * field (its hash no longer matches), a deleted, inserted or moved entry (the link to the one before breaks, or a
 * number is missing) — and, against the head kept in the settings, a truncated tail or entries the settings never
 * saw.
 *
 * A long journal is cut into stretches by sequence number, each checked in its own worker thread on its own
 * read-only connection (verify-range.ts); the stretches are then joined in order here, checking that each begins
 * with the number after the last one and links to its hash. The answer is the one a single pass from the first
 * entry gives: the first problem in sequence order wins.
 */
import { availableParallelism } from 'node:os';
import type { Database } from 'better-sqlite3';
import { GENESIS_HASH, type VerifyResult } from '../../shared/journal';
import { startModuleWorker } from '../module-worker';
import { brokenLinkProblem, sequenceProblem, verifyRange, type RangeCheck } from './verify-range';
import type { VerifyWorkerData } from './verify-worker';

export interface JournalHeadSeen {
  seq: number;
  hash: string;
}

export interface VerifyOptions {
  /** Threads to hash with; by default one per core, at most four. */
  threads?: number;
  /** A stretch shorter than this is not worth a thread's start (tens of milliseconds). */
  minEntriesPerThread?: number;
  clock?: () => number;
}

const MIN_ENTRIES_PER_THREAD = 50_000;

/** One thread per core, at most four: past that the disk, not the hashing, sets the pace. */
export const defaultVerifyThreads = (): number => Math.min(availableParallelism(), 4);

/** Sequence-number stretches `[lo, hi)` covering 1..last, one per thread. */
export function stretches(last: number, threads: number): [number, number][] {
  const size = Math.ceil(last / threads);
  const out: [number, number][] = [];
  for (let lo = 1; lo <= last; lo += size) out.push([lo, Math.min(lo + size, last + 1)]);
  return out.length > 0 ? out : [[1, 1]];
}

function checkInWorker(data: VerifyWorkerData): Promise<RangeCheck> {
  const worker = startModuleWorker(
    new URL('./journal-verify-worker.js', import.meta.url),
    new URL('./verify-worker.ts', import.meta.url),
    { workerData: data },
  );
  return new Promise<RangeCheck>((resolve, reject) => {
    worker.once('message', (m: { check?: RangeCheck; error?: string }) =>
      m.check ? resolve(m.check) : reject(new Error(`The journal could not be read: ${m.error}`)),
    );
    worker.once('error', reject);
    worker.once('exit', () => reject(new Error('The journal check stopped before it finished.')));
  });
}

export async function verifyJournal(
  db: Database,
  head: JournalHeadSeen | null,
  options: VerifyOptions & { nativeBinding?: string } = {},
): Promise<VerifyResult> {
  const clock = options.clock ?? (() => performance.now());
  const started = clock();
  // Read after the head (the caller's): every entry the head counts is then at or below `last`.
  const last = (db.prepare('SELECT max(seq) FROM journal').pluck().get() as number | null) ?? 0;
  const wanted = options.threads ?? defaultVerifyThreads();
  const threads = db.memory
    ? 1
    : Math.max(1, Math.min(wanted, Math.floor(last / (options.minEntriesPerThread ?? MIN_ENTRIES_PER_THREAD))));
  const headSeq = head?.seq ?? null;
  const checks =
    threads === 1
      ? [verifyRange(db, 1, last + 1, headSeq)]
      : await Promise.all(
          stretches(last, threads).map(([lo, hi]) =>
            checkInWorker({ file: db.name, nativeBinding: options.nativeBinding, lo, hi, headSeq }),
          ),
        );

  let expected = 1;
  let prev = GENESIS_HASH;
  let headHash: string | null = null;
  const fail = (problem: NonNullable<VerifyResult['problem']>, goodHash = prev): VerifyResult => ({
    ok: false,
    entries: problem.seq - 1,
    headHash: goodHash,
    problem,
    ms: clock() - started,
  });
  for (const check of checks) {
    if (check.first === null) continue;
    if (check.first.seq !== expected) return fail(sequenceProblem(expected, check.first.seq));
    if (check.first.prevHash !== prev) return fail(brokenLinkProblem(check.first.seq));
    if (check.problem) return fail(check.problem, check.last?.hash ?? prev);
    prev = check.last!.hash;
    expected = check.last!.seq + 1;
    headHash ??= check.headHash;
  }
  const entries = expected - 1;
  const done = (problem: VerifyResult['problem']): VerifyResult => ({
    ok: problem === null,
    entries,
    headHash: prev,
    problem,
    ms: clock() - started,
  });
  if (head === null) {
    return done(
      entries === 0
        ? null
        : {
            seq: 1,
            kind: 'head_mismatch',
            message: 'The settings hold no head for this journal, so a truncated tail could not be ruled out.',
          },
    );
  }
  if (head.seq > entries) {
    return done({
      seq: entries + 1,
      kind: 'truncated',
      message: `The journal ends at entry ${entries}, but entry ${head.seq} was written: the newest entries were removed.`,
    });
  }
  if (head.seq > 0 && headHash !== head.hash) {
    return done({
      seq: head.seq,
      kind: 'head_mismatch',
      message: `Entry ${head.seq} is not the one the settings recorded: the journal was rewritten from there.`,
    });
  }
  if (head.seq < entries) {
    return done({
      seq: head.seq + 1,
      kind: 'head_mismatch',
      message:
        `The settings know entries up to ${head.seq}, but the journal goes on to ${entries}: entries were added ` +
        'outside this app, or it stopped between writing an entry and the settings.',
    });
  }
  return done(null);
}
