/**
 * The worker thread of one cache file's grid reads (settlement-reader.ts): its pages with their exceptions' states,
 * its totals and its chart, on a read-only connection, one request at a time in the order they came; between them,
 * once idle, it warms the sort lists of the filter on screen (sort-warming.ts). The same thread, started apart,
 * builds a date's sort lists or checks dates (database.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openCacheReader } from './database';
import { createSortWarming } from './sort-warming';
import type {
  SettlementRead,
  SettlementReadAnswer,
  SettlementReadRequest,
  SettlementReadWorkerData,
} from './settlement-reader';

const { file, nativeBinding } = workerData as SettlementReadWorkerData;
const reader = openCacheReader(file, { nativeBinding });
const port = parentPort!;
const warming = createSortWarming({
  warm: (query, sort, source) => reader.settlements.warmSort(query, sort, source),
  generation: reader.dataGeneration,
});
/** Requests not answered yet: warming waits for none. */
let waiting = 0;

// Async, so that a read that throws answers with its error like one that rejects.
async function answer(request: SettlementRead): Promise<unknown> {
  switch (request.read) {
    case 'page':
      // The rows and their states in one read transaction, so a page never shows a state newer than its rows.
      return reader.snapshot(async () => {
        const page = reader.settlements.query(request.query, request.source);
        return { ...page, rows: reader.exceptions.labelled(page.rows, request.source) };
      });
    case 'totals':
      return reader.settlements.totals(request.filter, request.source);
    case 'aggregate':
      return reader.settlements.aggregate(request.filter, request.source);
    case 'sortLists':
      return reader.snapshot(async () => reader.sortLists.build(request.date));
    case 'verify':
      return reader.settlements.verifier.verify(request.dates);
  }
}

port.on('message', (request: SettlementReadRequest) => {
  waiting++;
  warming.asked(request);
  answer(request)
    .then(
      (value) => port.postMessage({ id: request.id, value } satisfies SettlementReadAnswer),
      (e: unknown) => {
        const code = e instanceof Error && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
        const message = e instanceof Error ? e.message : String(e);
        port.postMessage({ id: request.id, error: { message, code } } satisfies SettlementReadAnswer);
      },
    )
    .finally(() => {
      if (--waiting === 0) warming.idle();
    });
});
