/**
 * Where a settlement sync's pages are written: on the caller's connection (the sync's default), or on a thread of
 * their own.
 *
 * On one thread, the cache's page writes (records, rollup, checkpoint: about a third of a sync's time, README
 * "Benchmarks", _Sync_) ran between two pages' parsing. The writer thread (settlement-writer-worker.ts) has its own
 * connection and runs the same ingest, so the write of page N overlaps the fetch, parse and check of page N+1. Pages
 * cross as columns (settlement-page-codec.ts), not as a structured clone of a thousand objects. Measured on the
 * two-core machine with the sandbox in a process of its own, it lost to writing inline (the thread's encoding,
 * decoding and second isolate cost more than the overlap gained there), so it is not the sync's default; the sync
 * bench prints its ratio beside the figure.
 *
 * Every guarantee of the ingest is the thread's too: each page is one transaction with its checkpoint, in the order
 * posted, so a kill or a cancel leaves whole pages and the next sync resumes after the last one. A date failed while
 * its pages are still queued is marked failed on the same thread after them (a later page's checkpoint would mark
 * it running again). The first write that fails is reported once (`onFailure`, with the ingest's own error name
 * and message), nothing posted after it is written, and `done()` throws it. `backlog()` is how many posted
 * operations are not written yet: the sync counts it against its window, so memory stays bounded when the disk is
 * slower than the network.
 */
import type { Worker } from 'node:worker_threads';
import type { SettlementRecord } from '../../shared/api/settlements';
import { startModuleWorker } from '../module-worker';
import type { DateIngest, DateManifest, DateScope } from './settlement-ingest';
import { encodePage, type EncodedPage } from './settlement-page-codec';

/** One date of a sync, as the sync drives it: what DateIngest offers, without waiting for the answers. */
export interface DateWriter {
  upsertPage(records: readonly SettlementRecord[], nextOffset: number, lastKey: string | null): void;
  newPass(): void;
  finish(manifest: DateManifest): void;
}

export interface SettlementWriter {
  beginDate(scope: DateScope): DateWriter;
  /** Records why a date failed, after whatever of it was posted before. */
  failDate(date: DateWriter, runId: number, day: string, message: string): void;
  /** Operations posted and not yet written. */
  backlog(): number;
  /** Settles when the next operation is written or the writer fails. */
  progressed(): Promise<void>;
  /** Settles when everything posted is written; throws the writer's failure. */
  done(): Promise<void>;
  close(): Promise<void>;
}

export type WriterKind = 'thread' | 'inline';

export interface WriterData {
  file: string;
  nativeBinding: string | undefined;
}

type Timed<T> = T & { at: string };
export type WriterOp = Timed<
  | { op: 'begin'; handle: number; scope: DateScope }
  | {
      op: 'page';
      handle: number;
      /** The page, in the buffer of its slot; the buffer itself only when the slot has a new one. */
      slot: number;
      page: Omit<EncodedPage, 'buffer'> & { buffer?: SharedArrayBuffer };
      nextOffset: number;
      lastKey: string | null;
    }
  | { op: 'newPass'; handle: number }
  | { op: 'finish'; handle: number; manifest: DateManifest }
  | { op: 'failDate'; handle: number; runId: number; date: string; message: string }
>;
export type WriterReply =
  { done: number; slot?: number } | { error: { name: string; message: string; code?: unknown } };

/** The writer on the caller's own connection: each call writes at once and throws its own failure. */
export function inlineWriter(
  beginDate: (scope: DateScope) => DateIngest,
  failDate: (runId: number, date: string, message: string) => void,
): SettlementWriter {
  return {
    beginDate: (scope) => beginDate(scope),
    failDate: (_date, runId, day, message) => failDate(runId, day, message),
    backlog: () => 0,
    progressed: () => Promise.resolve(),
    done: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

export function threadWriter(
  data: WriterData,
  now: () => Date,
  onFailure: (error: Error) => void,
  start: (data: WriterData) => Worker = startWriterWorker,
): SettlementWriter {
  const worker = start(data);
  let posted = 0;
  let written = 0;
  let failure: Error | null = null;
  let wake: (() => void)[] = [];
  /**
   * The buffers pages are encoded in, shared with the writer thread (settlement-page-codec.ts): a slot is filled
   * again once the writer says it has written the page in it. As many as pages wait for the writer, at most.
   */
  const slots: SharedArrayBuffer[] = [];
  const free: number[] = [];
  const notify = () => {
    const waiting = wake;
    wake = [];
    for (const resolve of waiting) resolve();
  };
  const fail = (error: Error) => {
    if (failure) return;
    failure = error;
    onFailure(error);
    notify();
  };
  worker.on('message', (reply: WriterReply) => {
    if ('error' in reply) {
      fail(Object.assign(new Error(reply.error.message), { name: reply.error.name, code: reply.error.code }));
    } else {
      written += reply.done;
      if (reply.slot !== undefined) free.push(reply.slot);
      notify();
    }
  });
  worker.on('error', (e: unknown) =>
    fail(new Error(`The sync's writer thread stopped: ${e instanceof Error ? e.message : String(e)}`)),
  );
  let gone = false;
  const stopped = () => new Error("The sync's writer thread stopped before it wrote every page.");
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => {
    gone = true;
    if (written < posted) fail(stopped());
  });

  let handles = 0;
  const send = (op: WriterOp) => {
    if (gone) fail(stopped());
    // After a failure nothing is written: not posting saves the work.
    if (failure) return;
    posted++;
    worker.postMessage(op);
  };

  const at = () => now().toISOString();
  const handleOf = new WeakMap<DateWriter, number>();

  const progressed = () =>
    failure || written === posted ? Promise.resolve() : new Promise<void>((resolve) => wake.push(resolve));
  return {
    beginDate(scope) {
      const handle = ++handles;
      send({ op: 'begin', handle, scope, at: at() });
      const date: DateWriter = {
        upsertPage(records, nextOffset, lastKey) {
          if (failure) return;
          const slot = free.pop() ?? slots.length;
          const { buffer, ...page } = encodePage(records, slots[slot]);
          const fresh = buffer !== slots[slot];
          slots[slot] = buffer;
          send({ op: 'page', handle, slot, page: fresh ? { ...page, buffer } : page, nextOffset, lastKey, at: at() });
        },
        newPass: () => send({ op: 'newPass', handle, at: at() }),
        finish: (manifest) => send({ op: 'finish', handle, manifest, at: at() }),
      };
      handleOf.set(date, handle);
      return date;
    },
    failDate(date, runId, day, message) {
      send({ op: 'failDate', handle: handleOf.get(date)!, runId, date: day, message, at: at() });
    },
    backlog: () => posted - written,
    progressed,
    async done() {
      while (!failure && written < posted) await progressed();
      if (failure) throw failure;
    },
    async close() {
      worker.postMessage({ op: 'close' });
      await exited;
    },
  };
}

/**
 * A page's records, rows and statements' arguments are short-lived: a small young generation collects them sooner,
 * which keeps the thread's memory low.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

function startWriterWorker(data: WriterData): Worker {
  return startModuleWorker(
    new URL('./settlement-writer.js', import.meta.url),
    new URL('./settlement-writer-worker.ts', import.meta.url),
    { workerData: data, resourceLimits: WORKER_LIMITS },
    'commonjs',
  );
}
