/**
 * The sync's writer thread (settlement-writer.ts): its own connection to the cache, running the same ingest as the
 * app's connection (settlement-ingest.ts) on the operations the sync posts, strictly in their order. Each is
 * acknowledged; the first failure is posted once, and nothing after it is written (the ingest's memory may no longer
 * match the file, as when it fails on the app's own connection).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { configureConnection } from './connection';
import { beginDate, ingestDeps, type DateIngest, type IngestDeps } from './settlement-ingest';
import { decodePage } from './settlement-page-codec';
import { createSyncRunsRepository, type SyncRunsRepository } from './sync-runs';
import type { WriterData, WriterOp, WriterReply } from './settlement-writer';

const { file, nativeBinding } = workerData as WriterData;
const port = parentPort!;
const post = (reply: WriterReply) => port.postMessage(reply);

/** The time each operation was posted at, which is what the cache records: the app's clock, not this thread's. */
let at = new Date(0);
const now = () => at;

let db: Database.Database | undefined;
let failed = false;
/** Opened at the first operation, so that a failure to open is reported like any write's. */
let writing: { deps: IngestDeps; syncRuns: SyncRunsRepository } | undefined;
const dates = new Map<number, DateIngest>();
/** The buffers shared with the sync's thread, by slot (settlement-writer.ts). */
const slots: SharedArrayBuffer[] = [];

function open() {
  db = new Database(file, { fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  configureConnection(db);
  return { deps: ingestDeps(db, now), syncRuns: createSyncRunsRepository(db, now) };
}

function fail(e: unknown): void {
  failed = true;
  const error = e instanceof Error ? e : new Error(String(e));
  post({ error: { name: error.name, message: error.message, code: (error as { code?: unknown }).code } });
}

function run(op: WriterOp): void {
  at = new Date(op.at);
  const { deps, syncRuns } = (writing ??= open());
  switch (op.op) {
    case 'begin':
      dates.set(op.handle, beginDate(deps, op.scope));
      return;
    case 'page': {
      if (op.page.buffer) slots[op.slot] = op.page.buffer;
      const page = { ...op.page, buffer: slots[op.slot]! };
      dates.get(op.handle)!.upsertPage(decodePage(page), op.nextOffset, op.lastKey);
      return;
    }
    case 'newPass':
      dates.get(op.handle)!.newPass();
      return;
    case 'finish':
      dates.get(op.handle)!.finish(op.manifest);
      dates.delete(op.handle);
      return;
    case 'failDate':
      dates.delete(op.handle);
      syncRuns.failDate(op.runId, op.date, op.message);
      return;
  }
}

port.on('message', (op: WriterOp | { op: 'close' }) => {
  if (op.op === 'close') {
    db?.close();
    port.close();
    return;
  }
  if (!failed) {
    try {
      run(op);
    } catch (e) {
      fail(e);
    }
  }
  // A page's slot may be filled with a later page once this says it is written.
  post(op.op === 'page' ? { done: 1, slot: op.slot } : { done: 1 });
});
