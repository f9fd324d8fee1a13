/**
 * The bench's records and how they enter a cache: the sandbox's records of a date, page by page as the API client
 * hands them over, ingested as a sync run writes them (its search and sort keys after), and a scratch folder. Shared
 * by the groups and by the data sets (dataset.ts), apart from the cache group so neither imports the other.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cache } from '../../electron/cache/database';
import { EMPTY_DIGEST, createPassDigest } from '../../electron/cache/record-digest';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import { SettlementSource, type SettlementWire } from '../../electron/sandbox/data/settlements';
import { SETTLEMENT_PAGE, type SettlementRecord } from '../../shared/api/settlements';
import { parseDecimalToMinor } from '../../shared/money';

/** A date inside the sandbox's range is not needed: the generator computes any date. */
export const BENCH_DATE = '2025-01-15';

function toRecord(w: SettlementWire): SettlementRecord {
  return {
    ...w,
    merchant_subvention_amount: parseDecimalToMinor(w.merchant_subvention_amount),
    cgst: parseDecimalToMinor(w.cgst),
    igst: parseDecimalToMinor(w.igst),
    sgst: parseDecimalToMinor(w.sgst),
  };
}

/** The sandbox's records of one date, a page at a time, as the API client would hand them over. */
export function* recordPages(rows: number, date = BENCH_DATE, perDay = rows): Generator<SettlementRecord[]> {
  const source = new SettlementSource(
    1,
    perDay,
    GATEWAYS.map((g) => g.code),
  );
  for (let offset = 0; offset < rows; offset += SETTLEMENT_PAGE.maxLimit) {
    const limit = Math.min(SETTLEMENT_PAGE.maxLimit, rows - offset);
    yield source.page(date, undefined, offset, limit).data.map(toRecord);
  }
}

export function scratchDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'payout-bench-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Ingests pages of one date into `cache` as one sync run; returns the milliseconds spent in the cache. */
export function ingest(
  cache: Cache,
  pages: Iterable<SettlementRecord[]>,
  beside?: (page: SettlementRecord[]) => void,
): number {
  return ingestDates(cache, [[BENCH_DATE, pages]], beside).ms;
}

/**
 * Ingests dates (oldest first, each with its pages) into `cache` as one sync run, as the sync does, then writes
 * their search keys and sort keys as the sync does when its run ends; returns the milliseconds spent on each.
 */
export function ingestDates(
  cache: Cache,
  days: readonly (readonly [date: string, pages: Iterable<SettlementRecord[]>])[],
  beside?: (page: SettlementRecord[]) => void,
): { ms: number; keysMs: number; sortKeysMs: number } {
  const dates = days.map(([date]) => date);
  const { run } = cache.syncRuns.claim('settlements', { from: dates[0]!, to: dates.at(-1)!, pg: null }, dates);
  let ms = 0;
  const timed = (work: () => void) => {
    const t = performance.now();
    work();
    ms += performance.now() - t;
  };
  for (const [day, pages] of days) {
    let date!: ReturnType<Cache['settlements']['beginDate']>;
    timed(() => (date = cache.settlements.beginDate({ runId: run.id, date: day, pg: null })));
    let offset = 0;
    let count = 0;
    // What the sync's pass would have seen, digested outside the timed sections as the sync does it off the write.
    const digest = createPassDigest(null);
    for (const page of pages) {
      beside?.(page);
      digest.add(page);
      offset += page.length;
      count++;
      timed(() => date.upsertPage(page, offset));
    }
    const manifest = { pages: count, passes: 1, shifts: 0, stable: true, emptyDigest: EMPTY_DIGEST };
    timed(() => date.finish({ ...manifest, gateways: digest.gateways() }));
  }
  cache.syncRuns.finish(run.id, 'completed');
  const keysStart = performance.now();
  while (cache.settlements.searchKeys.writeOne() !== null);
  const sortKeysStart = performance.now();
  while (cache.settlements.sortKeys.writeOne() !== null);
  return { ms, keysMs: sortKeysStart - keysStart, sortKeysMs: performance.now() - sortKeysStart };
}
