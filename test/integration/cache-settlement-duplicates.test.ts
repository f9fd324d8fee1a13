/**
 * "Settled twice" across dates when the other dates' digests are kept in memory between closes
 * (settlement-duplicates.ts): two caches on one file (the app and the CLI, one sync at a time), each closing dates
 * in turn; a date the other connection wrote since is met too. Real SQLite files, the sandbox's records.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { addDays } from '../../shared/time';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { settlementRecord, type SettlementRecord } from '../../shared/api/settlements';
import { syncRunInto } from '../support/settlement-run';
import { allCachedRows } from '../support/cache-rows';
import { TEST_NOW } from '../support/clock';

const DATES = ['2025-06-01', '2025-06-02', '2025-06-03', '2025-06-04'];
const PER_DAY = 200;
const source = new SettlementSource(
  5,
  PER_DAY,
  GATEWAYS.map((g) => g.code),
);
const recordsOf = (date: string): SettlementRecord[] =>
  source.page(date, undefined, 0, PER_DAY).data.map((w) => settlementRecord.parse(w));

let dir: string;
let caches: Cache[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cache-duplicates-'));
});
afterEach(() => {
  for (const c of caches) c.close();
  caches = [];
  rmSync(dir, { recursive: true, force: true });
});
const open = () => {
  const c = openCache(join(dir, 'cache.sqlite'), { now: () => new Date(TEST_NOW) });
  caches.push(c);
  return c;
};

it('meets a date another connection closed after this one kept the digests', () => {
  const [app, cli] = [open(), open()];
  const last = recordsOf(DATES[3]!);
  const settledTwice = last.find((r) => r.pg !== undefined && r.settled_amount !== 0)!;
  // The same gateway transaction settled again on the third date, at another time.
  const third = recordsOf(DATES[2]!);
  third.push({ ...settledTwice, settlement_date: `${DATES[2]} 11:11:11` });

  syncRunInto(app, { [DATES[0]!]: recordsOf(DATES[0]!), [DATES[1]!]: recordsOf(DATES[1]!) }, 100);
  syncRunInto(cli, { [DATES[2]!]: third }, 100);
  syncRunInto(app, { [DATES[3]!]: last }, 100);

  const marked = allCachedRows(app, { from: DATES[0]!, to: DATES[3]! }, {}).filter(
    (r) => r.pg_transaction_id === settledTwice.pg_transaction_id && r.pg === settledTwice.pg,
  );
  expect(marked.map((r) => r.date).sort()).toEqual([DATES[2], DATES[3]]);
  for (const r of marked) expect(r.exceptions.map((e) => e.rule)).toContain('duplicate_settlement');
});

it('meets, within one run, the dates it closed itself, and a date closed again', () => {
  const cache = open();
  const first = recordsOf(DATES[0]!);
  const settledTwice = first.find((r) => r.pg !== undefined && r.settled_amount !== 0)!;
  const second = [...recordsOf(DATES[1]!), { ...settledTwice, settlement_date: `${DATES[1]} 09:09:09` }];
  syncRunInto(cache, { [DATES[0]!]: first, [DATES[1]!]: second, [DATES[2]!]: recordsOf(DATES[2]!) }, 100);
  const rowsOf = () =>
    allCachedRows(cache, { from: DATES[0]!, to: DATES[2]! }, {}).filter(
      (r) => r.pg_transaction_id === settledTwice.pg_transaction_id && r.pg === settledTwice.pg,
    );
  expect(rowsOf().map((r) => r.exceptions.some((e) => e.rule === 'duplicate_settlement'))).toEqual([true, true]);
  // The first date synced again without the record: it vanishes there, and the second date's is alone again.
  syncRunInto(cache, { [DATES[0]!]: first.filter((r) => r !== settledTwice) }, 100);
  syncRunInto(cache, { [DATES[1]!]: second }, 100);
  expect(rowsOf().map((r) => r.exceptions.some((e) => e.rule === 'duplicate_settlement'))).toEqual([false]);
});

it('marks the same rows as reading every date would, over many dates closed in one run', () => {
  const cache = open();
  const dates = Array.from({ length: 22 }, (_, i) => addDays('2025-07-01', i));
  const records = Object.fromEntries(
    dates.map((d) => [d, source.page(d, undefined, 0, 40).data.map((w) => settlementRecord.parse(w))]),
  );
  // Settled again on a later date: far apart, side by side, and in between.
  const pairs = [
    [0, dates.length - 1],
    [3, 18],
    [16, 17],
    [1, 2],
  ] as const;
  for (const [from, to] of pairs) {
    const r = records[dates[from]!]!.find((x) => x.pg !== undefined && x.settled_amount !== 0)!;
    records[dates[to]!]!.push({ ...r, settlement_date: `${dates[to]} 10:10:10` });
  }
  syncRunInto(cache, records, 25);
  const rows = allCachedRows(cache, { from: dates[0]!, to: dates.at(-1)! }, {});
  const groups = new Map<string, number[]>();
  for (const r of rows.filter((x) => x.settled_amount !== 0)) {
    const key = `${r.pg}|${r.pg_transaction_id}`;
    groups.set(key, [...(groups.get(key) ?? []), r.id]);
  }
  const expected = [...groups.values()].filter((g) => g.length > 1).flat();
  expect(expected.length).toBeGreaterThanOrEqual(pairs.length * 2);
  const marked = rows.filter((r) => r.exceptions.some((e) => e.rule === 'duplicate_settlement')).map((r) => r.id);
  expect(marked.sort()).toEqual(expected.sort());
});

it('meets the rows of a date whose close rolled back, its digest kept inside that transaction', () => {
  const first = open();
  syncRunInto(first, { [DATES[0]!]: recordsOf(DATES[0]!) }, 100);
  // Another session: its first close reads the gateway's digests, the closing date's own uncommitted one with them.
  const cache = open();
  const second = recordsOf(DATES[1]!);
  const settledTwice = second.find((r) => r.pg !== undefined && r.settled_amount !== 0)!;
  const third = [...recordsOf(DATES[2]!), { ...settledTwice, settlement_date: `${DATES[2]} 12:12:12` }];
  cache.db.exec(`CREATE TEMP TRIGGER fail_close BEFORE INSERT ON settlement_days WHEN NEW.date = '${DATES[1]}'
                 BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END`);
  const { run } = cache.syncRuns.claim('settlements', { from: DATES[1]!, to: DATES[1]!, pg: null }, [DATES[1]!]);
  const ingest = cache.settlements.beginDate({ runId: run.id, date: DATES[1]!, pg: null });
  ingest.upsertPage(second, second.length);
  expect(() => ingest.finish()).toThrow(/disk I\/O error/);
  cache.syncRuns.finish(run.id, 'failed');
  cache.db.exec('DROP TRIGGER fail_close');
  const digestsOfSecond = cache.db.prepare('SELECT count(*) FROM settlement_digests WHERE date = ?').pluck();
  expect(digestsOfSecond.get(DATES[1])).toBe(0);

  const marked = () =>
    allCachedRows(cache, { from: DATES[0]!, to: DATES[2]! }, {})
      .filter((r) => r.pg_transaction_id === settledTwice.pg_transaction_id && r.pg === settledTwice.pg)
      .map((r) => [r.date, r.exceptions.some((e) => e.rule === 'duplicate_settlement')])
      .sort();
  // The second date's pages committed, its close did not: the third date still meets its row.
  syncRunInto(cache, { [DATES[2]!]: third }, 100);
  expect(marked()).toEqual([
    [DATES[1], true],
    [DATES[2], true],
  ]);
  // The second date closed again, this time committed: the same two, and its digest is in the file.
  syncRunInto(cache, { [DATES[1]!]: second }, 100);
  expect(digestsOfSecond.get(DATES[1])).toBeGreaterThan(0);
  expect(marked()).toEqual([
    [DATES[1], true],
    [DATES[2], true],
  ]);
});
