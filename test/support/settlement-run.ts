/**
 * A settlement sync's writes to a cache without the API: the records of each date are chosen by the test.
 */
import type { Cache } from '../../electron/cache/database';
import type { SettlementRecord } from '../../shared/api/settlements';

/**
 * What the sync engine does to the cache in one run over `dates` (records given per date): the run claimed,
 * then per date its records upserted in pages of `pageSize` (one page at least, empty if there are none) and
 * the date finished, then the run finished as completed and the dates' search and sort keys written. Per date: the pages' counts added up and what
 * finishing the date reported.
 */
export function syncRunInto(cache: Cache, dates: Record<string, SettlementRecord[]>, pageSize: number) {
  const days = Object.keys(dates).sort();
  const { run } = cache.syncRuns.claim('settlements', { from: days[0]!, to: days.at(-1)!, pg: null }, days);
  const results = [];
  for (const date of days) {
    const ingest = cache.settlements.beginDate({ runId: run.id, date, pg: null });
    const records = dates[date]!;
    let pages = 0;
    const counts = { inserted: 0, updated: 0, unchanged: 0, repeated: 0 };
    for (let offset = 0; offset < records.length || pages === 0; offset += pageSize) {
      const page = records.slice(offset, offset + pageSize);
      const r = ingest.upsertPage(page, offset + page.length);
      for (const k of Object.keys(counts) as (keyof typeof counts)[]) counts[k] += r[k];
      pages++;
    }
    results.push({ date, ...counts, ...ingest.finish() });
  }
  cache.syncRuns.finish(run.id, 'completed');
  // As the sync ends its run: the dates' search and sort keys.
  while (cache.settlements.searchKeys.writeOne() !== null);
  while (cache.settlements.sortKeys.writeOne() !== null);
  return results;
}
