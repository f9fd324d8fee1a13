/**
 * The sort keys' lists built in a worker thread and written by main (Cache.writeSortKeys, sort-keys.ts): the same
 * lists, byte for byte, as main builds and writes itself; and lists of a snapshot the date's records have moved on
 * from are never written, whether this connection changed them or another one committed.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { createSettlementReader } from '../../electron/cache/settlement-reader';
import { PER_DAY as IDS_PER_DAY } from '../../electron/cache/settlement-ids';
import { decodeBlock, writeSortKeysBuiltElsewhere, type DateSortLists } from '../../electron/cache/sort-keys';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { writeKeysAfter } from '../../electron/sync/settlement-sync';
import { settlementRecord, type SettlementRecord } from '../../shared/api/settlements';
import { TEST_NOW } from '../support/clock';
import { syncRunInto } from '../support/settlement-run';

const DATES = ['2025-05-01', '2025-05-02', '2025-05-04'];
const PER_DAY = 1200;
const source = new SettlementSource(
  31,
  PER_DAY,
  GATEWAYS.map((g) => g.code),
);
const recordsOf = (date: string): SettlementRecord[] =>
  source.page(date, undefined, 0, PER_DAY).data.map((w) => settlementRecord.parse(w));

let dir: string;
const opened: Cache[] = [];

/** A cache holding DATES, each synced in a run of its own; its sort keys written by main. */
function syncedCache(name: string): Cache {
  const cache = openCache(join(dir, name), { now: () => new Date(TEST_NOW) });
  opened.push(cache);
  for (const date of DATES) syncRunInto(cache, { [date]: recordsOf(date) }, 400);
  return cache;
}

/** Every sort key the file holds, as stored: lists, blocks, codes and classes. */
function storedKeys(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const all = (sql: string) => db.prepare(sql).raw(true).all();
    return {
      blocks: all(
        'SELECT col, day, pg_code, block, hex(ids), hex(classes) FROM settlement_sort_blocks ORDER BY 1, 2, 3, 4',
      ),
      marks: all('SELECT col, day, pg_code, keys, hex(counts) FROM settlement_sort_mark_lists ORDER BY 1, 2, 3'),
      codes: all('SELECT code, kind, value FROM settlement_sort_codes ORDER BY code'),
      classes: all('SELECT * FROM settlement_sort_classes ORDER BY code'),
      sorted: all('SELECT date FROM settlement_sorted_days ORDER BY date').flat(),
    };
  } finally {
    db.close();
  }
}

/**
 * Every list as what it holds, whatever the file numbered its gateways and classes: per column, day and gateway,
 * the ids in order with each one's class (payment mode, statuses and flags). Not the marks: where a list's blocks
 * start depends on its gateway's number (sort-keys.ts, blockStarts).
 */
function listsByValue(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const rows = (sql: string, ...params: unknown[]) =>
      db
        .prepare(sql)
        .raw(true)
        .all(...params) as unknown[][];
    const name = new Map(
      rows('SELECT code, kind, value FROM settlement_sort_codes').map(([c, k, v]) => [c, `${k}=${v}`]),
    );
    const classOf = new Map(
      rows(
        'SELECT code, mode_code, order_status_code, pg_status_code, exception_flags FROM settlement_sort_classes',
      ).map(([c, m, o, g, f]) => [c, `${name.get(m)} ${name.get(o)} ${name.get(g)} ${f}`]),
    );
    const lists = new Map<string, unknown>();
    for (const [col, day, pg] of rows('SELECT col, day, pg_code FROM settlement_sort_mark_lists')) {
      const ids: number[] = [];
      const classes: string[] = [];
      const blocks = rows(
        'SELECT ids, classes FROM settlement_sort_blocks WHERE col = ? AND day = ? AND pg_code = ? ORDER BY block',
        col,
        day,
        pg,
      );
      for (const [idBlob, classBlob] of blocks) {
        const block = decodeBlock(idBlob as Uint8Array, classBlob as Uint8Array, (day as number) * IDS_PER_DAY);
        ids.push(...block.ids);
        for (const c of block.classes) classes.push(classOf.get(c)!);
      }
      lists.set(`${col} ${day} ${name.get(pg)}`, { ids, classes });
    }
    return Object.fromEntries([...lists].sort(([a], [b]) => (a < b ? -1 : 1)));
  } finally {
    db.close();
  }
}

/** Takes every sort key out of the file, from a connection of its own, as a cache before its first keys. */
function dropSortKeys(file: string) {
  const db = new Database(file);
  db.exec(`DELETE FROM settlement_sort_blocks; DELETE FROM settlement_sort_mark_lists; DELETE FROM settlement_sort_codes;
           DELETE FROM settlement_sort_classes; DELETE FROM settlement_sorted_days;`);
  db.close();
}

/** Takes every search key out of the file, as a cache before its first keys. */
function dropSearchKeys(file: string) {
  const db = new Database(file);
  db.exec('DELETE FROM settlement_keys; DELETE FROM settlement_keyed_days;');
  db.close();
}

/** Every search key the file holds, and the dates whose keys are current. */
function storedSearchKeys(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    return {
      keys: db.prepare('SELECT day, key, n FROM settlement_keys ORDER BY 1, 2, 3').raw(true).all(),
      keyed: db.prepare('SELECT date FROM settlement_keyed_days ORDER BY 1').pluck().all(),
    };
  } finally {
    db.close();
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cache-sort-elsewhere-'));
});
afterAll(async () => {
  for (const cache of opened) await cache.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sort keys built in a worker thread', () => {
  it('writes the lists main would have written, byte for byte', async () => {
    const byMain = syncedCache('main.sqlite');
    const byWorker = syncedCache('worker.sqlite');
    // Both from no keys at all: the numbers of classes follow the order they are met in.
    dropSortKeys(byMain.file);
    while (byMain.settlements.sortKeys.writeOne() !== null);
    dropSortKeys(byWorker.file);
    expect(storedKeys(byWorker.file).blocks).toEqual([]);

    expect(await byWorker.writeSortKeys()).toBe(DATES.length);
    const expected = storedKeys(byMain.file);
    expect(expected.sorted).toEqual(DATES);
    expect(storedKeys(byWorker.file)).toEqual(expected);
    // Nothing left to write.
    expect(await byWorker.writeSortKeys()).toBe(0);
  });

  it('after a sync, the search keys and the lists sorted in the worker: the keys main writes alone', async () => {
    const byMain = syncedCache('after-main.sqlite');
    const byWorker = syncedCache('after-worker.sqlite');
    for (const cache of [byMain, byWorker]) {
      dropSortKeys(cache.file);
      dropSearchKeys(cache.file);
    }
    await writeKeysAfter(byMain, 'main');
    await writeKeysAfter(byWorker, 'worker');
    expect(storedKeys(byWorker.file)).toEqual(storedKeys(byMain.file));
    expect(storedSearchKeys(byWorker.file)).toEqual(storedSearchKeys(byMain.file));
    expect(storedSearchKeys(byWorker.file).keyed).toEqual(DATES);
  });

  it('after a sync, a failure of the sort keys is thrown with the search keys written', async () => {
    const cache = syncedCache('after-failed-sort.sqlite');
    dropSortKeys(cache.file);
    dropSearchKeys(cache.file);
    const failing = {
      settlements: cache.settlements,
      writeSortKeys: () => Promise.reject(new Error('the sort worker stopped')),
      stopSortKeys: () => cache.stopSortKeys(),
    };
    await expect(writeKeysAfter(failing, 'worker')).rejects.toThrow('the sort worker stopped');
    expect(storedSearchKeys(cache.file).keyed).toEqual(DATES);
  });

  it('does not write a date whose records changed on this connection after its lists were asked for', async () => {
    const cache = syncedCache('changed-here.sqlite');
    const [date] = DATES;
    dropSortKeys(cache.file);
    const builder = createSettlementReader(cache.file);
    try {
      // The first date's lists are read; then, before main writes them, a sync changes one of its records.
      const build = async (asked: string): Promise<DateSortLists> => {
        const lists = await builder.sortLists(asked);
        if (asked === date) ingestWithoutKeys(cache, date!, changedRecords(date!));
        return lists;
      };
      expect(await writeSortKeysBuiltElsewhere(cache.settlements.sortKeys, build)).toBe(DATES.length - 1);
      expect(storedKeys(cache.file).sorted).toEqual(DATES.slice(1));
      expect(cache.settlements.sortKeys.next()?.date).toBe(date);
    } finally {
      await builder.close();
    }
    // Written from the records as they are now: what main writes for them.
    expect(await cache.writeSortKeys()).toBe(1);
    const reference = syncedCache('changed-reference.sqlite');
    syncRunInto(reference, { [date!]: changedRecords(date!) }, 400);
    dropSortKeys(reference.file);
    while (reference.settlements.sortKeys.writeOne() !== null);
    // The first date was numbered last here: the same lists under other numbers of gateways and classes.
    expect(listsByValue(cache.file)).toEqual(listsByValue(reference.file));
  });

  it('does not write lists when another connection committed after they were asked for', async () => {
    const cache = syncedCache('changed-elsewhere.sqlite');
    dropSortKeys(cache.file);
    const builder = createSettlementReader(cache.file);
    const other = new Database(cache.file);
    try {
      const build = async (asked: string): Promise<DateSortLists> => {
        const lists = await builder.sortLists(asked);
        // Another process's write to the same file (the CLI's, say): main cannot know what it changed.
        other
          .prepare(
            'UPDATE settlements SET amount = amount + 1 WHERE id = (SELECT min(id) FROM settlements WHERE date = ?)',
          )
          .run(asked);
        return lists;
      };
      expect(await writeSortKeysBuiltElsewhere(cache.settlements.sortKeys, build)).toBe(0);
      expect(storedKeys(cache.file).sorted).toEqual([]);
    } finally {
      other.close();
      await builder.close();
    }
    expect(await cache.writeSortKeys()).toBe(DATES.length);
  });
});

/** The date's records with one amount changed. */
const changedRecords = (date: string) =>
  recordsOf(date).map((r, i) => (i === 7 ? { ...r, amount: r.amount + 100 } : r));

/** A sync run of one date, its pages written and the date closed, without the keys written after a run. */
function ingestWithoutKeys(cache: Cache, date: string, records: SettlementRecord[]) {
  const { run } = cache.syncRuns.claim('settlements', { from: date, to: date, pg: null }, [date]);
  const ingest = cache.settlements.beginDate({ runId: run.id, date, pg: null });
  ingest.upsertPage(records, records.length);
  ingest.finish();
  cache.syncRuns.finish(run.id, 'completed');
}
