/**
 * The Settlements grid's reads of one cache file, answered by a worker thread of their own
 * (settlement-read-worker.ts) on a read-only connection, so that main's event loop, which answers every screen's IPC
 * and runs a sync, never waits on a page, the totals bar or the chart: a walk of a million records reads for about
 * 200 ms. Writes stay on main's connection (sync, exception actions, the desk's states); each is committed before
 * main asks for the read that must see it, and a read-only connection's next read starts from the WAL's last commit.
 *
 * The worker starts on the first read and stops when its cache closes. Requests carry an id and are answered in
 * the order they were asked; several may be in flight. A worker that dies (a crash, out of memory) fails the reads it
 * held with a sentence saying so, and the next read starts another.
 */
import type { Worker } from 'node:worker_threads';
import {
  settlementFilter,
  settlementQuery,
  type SettlementAggregate,
  type SettlementFilter,
  type SettlementPageResult,
  type SettlementQuery,
  type SettlementTotals,
} from '../../shared/settlement-query';
import type { CacheVerifyResult } from '../../shared/cache-verify';
import { startModuleWorker } from '../module-worker';
import type { ResolvedSource } from './settlement-filter';
import type { DateSortLists } from './sort-keys';

export interface SettlementReadWorkerData {
  file: string;
  nativeBinding: string | undefined;
}

/** Whose workflow states label the grid's exceptions and leave resolved ones out (settlement-filter.ts). */
export type GridSource = Exclude<ResolvedSource, null>;

/** Checked by the schemas on main before it is sent, so the worker only ever reads a valid query. */
export type SettlementRead =
  | { read: 'page'; query: SettlementQuery; source: GridSource }
  | { read: 'totals' | 'aggregate'; filter: SettlementFilter; source: GridSource }
  | { read: 'sortLists'; date: string }
  | { read: 'verify'; dates: string[] };

export type SettlementReadRequest = SettlementRead & { id: number };

/** A failed read keeps its message and its error's `code` (the IPC router passes both on). */
export type SettlementReadAnswer =
  { id: number; value: unknown } | { id: number; error: { message: string; code: string | undefined } };

/** A read the worker did not answer: it stopped first, or its cache was closed. */
export class SettlementReadStoppedError extends Error {
  override name = 'SettlementReadStoppedError';
  readonly code = 'CACHE_READ_STOPPED';
}

class SettlementReadFailedError extends Error {
  override name = 'SettlementReadFailedError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/**
 * This module's own URL, through a name: Vite rewrites `new URL('…', import.meta.url)` written out into a web
 * address when it runs this module in a page's environment (the renderer's tests, jsdom, over the real core).
 */
const here = import.meta.url;

export function startSettlementReadWorker(data: SettlementReadWorkerData): Worker {
  return startModuleWorker(new URL('./settlement-read-worker.js', here), new URL('./settlement-read-worker.ts', here), {
    workerData: data,
  });
}

interface Waiting {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export function createSettlementReader(
  file: string,
  options: {
    nativeBinding?: string;
    /** How the worker is started: the built entry or the source (module-worker.ts); a test keeps the handle. */
    start?: (data: SettlementReadWorkerData) => Worker;
  } = {},
) {
  const start = options.start ?? startSettlementReadWorker;
  let current: { worker: Worker; waiting: Map<number, Waiting> } | null = null;
  let lastId = 0;
  let closed = false;

  function running() {
    if (current) return current;
    const worker = start({ file, nativeBinding: options.nativeBinding });
    // Each worker's own requests: answers from one never settle another's, and its exit fails only its own.
    const waiting = new Map<number, Waiting>();
    const run = { worker, waiting };
    let failure: Error | null = null;
    worker.on('message', (answer: SettlementReadAnswer) => {
      const w = waiting.get(answer.id);
      if (!w) return;
      waiting.delete(answer.id);
      if ('error' in answer) w.reject(new SettlementReadFailedError(answer.error.message, answer.error.code));
      else w.resolve(answer.value);
    });
    worker.on('error', (e) => (failure = e));
    worker.on('exit', (code) => {
      if (current === run) current = null;
      const why = failure
        ? `its worker thread failed (${failure.message})`
        : `its worker thread stopped (exit code ${code})`;
      stopAll(waiting, `The settlement read stopped before it answered: ${why}. Read again to retry.`);
    });
    current = run;
    return run;
  }

  function ask<T>(read: SettlementRead): Promise<T> {
    if (closed) return Promise.reject(new SettlementReadStoppedError('The cache was closed; open it again to read.'));
    const { worker, waiting } = running();
    const id = ++lastId;
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...read, id } satisfies SettlementReadRequest);
    });
  }

  return {
    /** A page of the grid, each exception labelled with its workflow state by `source`'s states. */
    page: (query: SettlementQuery, source: GridSource) =>
      ask<SettlementPageResult>({ read: 'page', query: settlementQuery.parse(query), source }),
    totals: (filter: SettlementFilter, source: GridSource) =>
      ask<SettlementTotals>({ read: 'totals', filter: settlementFilter.parse(filter), source }),
    aggregate: (filter: SettlementFilter, source: GridSource) =>
      ask<SettlementAggregate>({ read: 'aggregate', filter: settlementFilter.parse(filter), source }),
    /**
     * A date's sort lists built from one snapshot (sort-keys.ts), for main to write: the sorting of a sync's
     * dates, about 0.2 s each at 20,000 records, on this thread instead of main's.
     */
    sortLists: (date: string) => ask<DateSortLists>({ read: 'sortLists', date }),
    /** The check of these dates' records and sums (settlement-verify.ts): seconds for a date of a million records. */
    verify: (dates: readonly string[]) => ask<CacheVerifyResult>({ read: 'verify', dates: [...dates] }),
    /** Stops the worker; reads still waiting fail, and later ones are refused. */
    async close(): Promise<void> {
      closed = true;
      const run = current;
      current = null;
      if (!run) return;
      stopAll(run.waiting, 'The cache was closed before the settlement read answered.');
      await run.worker.terminate();
    },
  };
}
export type SettlementReader = ReturnType<typeof createSettlementReader>;

function stopAll(waiting: Map<number, Waiting>, message: string): void {
  for (const w of waiting.values()) w.reject(new SettlementReadStoppedError(message));
  waiting.clear();
}
