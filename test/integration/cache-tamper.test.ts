/**
 * Money edited in the cache file, against the real sandbox over loopback into real SQLite files (issue 32, item 3):
 * a record's amount edited with the app closed, a row deleted, the rollup edited alone, each found by the check
 * (settlement-verify.ts) and repaired, not compounded, by a re-sync of the date; and a trigger planted while the cache
 * is open, which refuses the next sync's writes instead of zeroing its records. `cache verify` on the command line.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { idRange } from '../../electron/cache/settlement-ids';
import { syncSettlements } from '../../electron/sync/settlement-sync';
import type { SettlementRecord } from '../../shared/api/settlements';
import type { CacheVerifyResult } from '../../shared/cache-verify';
import { formatCalendarDate, formatCount } from '../../shared/format';
import { cliRunner } from '../support/cli';
import { sandboxProfile } from '../support/sandbox';
import { syncTestFile } from '../support/sync-test-file';

const setup = syncTestFile({ settlementsPerDay: 240, folder: 'cache-tamper-' });
const BILLION = 1_000_000_000;

/** What the API serves for the date, read with the client's own paging. */
async function served(date: string): Promise<SettlementRecord[]> {
  const out: SettlementRecord[] = [];
  for await (const page of setup.sb.api().settlements.pages({ date })) out.push(...page.data);
  return out;
}

const sums = (records: readonly SettlementRecord[]) => ({
  count: records.length,
  amount: records.reduce((t, r) => t + r.amount, 0),
  settled: records.reduce((t, r) => t + r.settled_amount, 0),
});

/** A cache of `dates`, synced in pages smaller than a date so each date is several page transactions. */
async function synced(dates: string[]): Promise<Cache> {
  const cache = setup.freshCache();
  await sync(cache, dates[0]!, dates.at(-1)!);
  return cache;
}

const sync = (cache: Cache, from: string, to: string) =>
  syncSettlements({ api: setup.sb.api(), cache, from, to, pageSize: 50 });

/** The cache closed, `edit` run on the file by another program, and the cache opened again: the app closed meanwhile. */
function editedWhileClosed(cache: Cache, edit: (db: Database.Database) => void): Cache {
  cache.close();
  const db = new Database(cache.file);
  try {
    edit(db);
  } finally {
    db.close();
  }
  return setup.closedAfterTest(openCache(cache.file));
}

/** The id of one current record of the date, and its gateway. */
function oneRecord(db: Database.Database, date: string): { id: number; pg: string } {
  const { lo, hi } = idRange(date, date);
  return db
    .prepare('SELECT id, pg FROM settlements WHERE id BETWEEN ? AND ? AND vanished_at IS NULL ORDER BY id LIMIT 1')
    .get(lo, hi) as { id: number; pg: string };
}

const totals = (cache: Cache, date: string) => {
  const t = cache.settlements.totals({ from: date, to: date });
  return { count: t.count, amount: t.amount, settled: t.settled };
};

const verifyAll = (cache: Cache) => cache.settlements.verifier.verify(cache.settlements.verifier.dates());

describe('money edited in the cache', () => {
  it('finds nothing in a cache as the sync wrote it', async () => {
    const dates = setup.dates.slice(-3);
    const cache = await synced(dates);
    const found = await verifyAll(cache);
    expect(found).toMatchObject({ from: dates[0], to: dates[2], dates: 3, mismatches: [], undigested: [] });
    expect(found.records).toBe((await Promise.all(dates.map(served))).flat().length);
  });

  it("finds a record's amount raised by 1e9 with the app closed, and a re-sync of the date repairs the totals", async () => {
    const [date] = setup.dates.slice(-1);
    const truth = sums(await served(date!));
    let edited: { id: number; pg: string } | null = null;
    const cache = editedWhileClosed(await synced([date!]), (db) => {
      edited = oneRecord(db, date!);
      db.prepare('UPDATE settlements SET amount = amount + ?, settled_amount = settled_amount + ? WHERE id = ?').run(
        BILLION,
        BILLION,
        edited.id,
      );
    });
    const found = await verifyAll(cache);
    expect(found.affectedDates).toEqual([date]);
    expect(found.mismatches.map((m) => [m.kind, m.pg])).toEqual([
      ['records', edited!.pg],
      ['rollup', null],
      ['batches', null],
      ['batch_modes', null],
    ]);
    expect(found.mismatches[0]!.message).toContain('values changed since');

    await sync(cache, date!, date!);
    // Adjusted by (true − edited), the rollup read a billion paise short: negative totals.
    expect(totals(cache, date!)).toEqual(truth);
    expect((await verifyAll(cache)).mismatches).toEqual([]);
  });

  it('finds the same in a worker thread of its own as on main (the check the screens ask for)', async () => {
    const [date] = setup.dates.slice(-1);
    const cache = editedWhileClosed(await synced([date!]), (db) => {
      db.prepare('UPDATE settlements SET amount = amount + ? WHERE id = ?').run(BILLION, oneRecord(db, date!).id);
    });
    const dates = cache.settlements.verifier.dates();
    const apart = await cache.verifyApart(dates);
    expect(apart.affectedDates).toEqual([date]);
    expect(apart).toEqual(await cache.settlements.verifier.verify(dates));
  });

  it('finds a deleted row, and counts it once after a re-sync', async () => {
    const [date] = setup.dates.slice(-2);
    const records = await served(date!);
    const truth = sums(records);
    let deleted: { id: number; pg: string } | null = null;
    const cache = editedWhileClosed(await synced([date!]), (db) => {
      deleted = oneRecord(db, date!);
      db.prepare('DELETE FROM settlements WHERE id = ?').run(deleted.id);
    });
    const found = await verifyAll(cache);
    expect(found.affectedDates).toEqual([date]);
    const ofGateway = records.filter((r) => r.pg === deleted!.pg).length;
    expect(found.mismatches.map((m) => [m.kind, m.pg])).toEqual([
      ['records', deleted!.pg],
      ['rollup', null],
      ['batches', null],
      ['batch_modes', null],
    ]);
    expect(found.mismatches[0]!.message).toContain(
      `The records of ${formatCalendarDate(date!)} (${deleted!.pg}) are not the ones its last sync stored: ` +
        `${formatCount(ofGateway - 1)} now against ${formatCount(ofGateway)} then.`,
    );

    await sync(cache, date!, date!);
    expect(totals(cache, date!)).toEqual(truth);
    expect((await verifyAll(cache)).mismatches).toEqual([]);
  });

  it('finds the rollup edited alone, and a re-sync of unchanged records does not keep the edit', async () => {
    const [date] = setup.dates.slice(-3);
    const truth = sums(await served(date!));
    const cache = editedWhileClosed(await synced([date!]), (db) => {
      db.prepare(
        `UPDATE settlement_rollup SET settled = settled + ?, count = count + 1
         WHERE (date, pg, payment_mode, order_status, pg_status, exception_flags) IN
           (SELECT date, pg, payment_mode, order_status, pg_status, exception_flags FROM settlement_rollup
            WHERE date = ? LIMIT 1)`,
      ).run(BILLION, date);
    });
    expect(totals(cache, date!)).toEqual({ ...truth, count: truth.count + 1, settled: truth.settled + BILLION });
    const found = await verifyAll(cache);
    expect(found.mismatches.map((m) => m.kind)).toEqual(['rollup']);
    expect(found.mismatches[0]!.message).toContain(
      `of ${formatCalendarDate(date!)} count ${formatCount(truth.count + 1)} records`,
    );

    const summary = await sync(cache, date!, date!);
    expect(summary.updated).toBe(0);
    expect(totals(cache, date!)).toEqual(truth);
    expect((await verifyAll(cache)).mismatches).toEqual([]);
  });

  it("refuses a sync's writes, saying why, once a trigger is planted in the open cache", async () => {
    const [first, second] = setup.dates.slice(-2);
    const cache = await synced([first!]);
    // Another program, while the app holds the file: every record the next sync inserts is zeroed.
    const other = new Database(cache.file);
    try {
      other.exec(`CREATE TRIGGER zero_amounts AFTER INSERT ON settlements BEGIN
                    UPDATE settlements SET amount = 0, settled_amount = 0 WHERE id = NEW.id;
                  END`);
    } finally {
      other.close();
    }
    await expect(sync(cache, second!, second!)).rejects.toThrow(
      /^Nothing was written to the local cache: it holds objects the app did not make \(trigger "zero_amounts"\)/,
    );
    const { lo, hi } = idRange(second!, second!);
    expect(cache.db.prepare('SELECT count(*) FROM settlements WHERE id BETWEEN ? AND ?').pluck().get(lo, hi)).toBe(0);
    // The records synced before it are as they were.
    expect(totals(cache, first!)).toEqual(sums(await served(first!)));
  });
});

describe('cache verify', () => {
  it('exits 0 on a cache as synced, and 1 naming the dates to re-fetch once a record was edited', async () => {
    const dir = mkdtempSync(join(setup.dir, 'cli-'));
    const profileId = sandboxProfile(setup.sb, dir);
    const { run } = cliRunner(dir, { DESK_SECRET: setup.sb.secret });
    const cli = (...argv: string[]) => run('--profile', 'Desk', '--secret-env', 'DESK_SECRET', ...argv);
    const [from, to] = [setup.dates.at(-3)!, setup.dates.at(-1)!];
    expect((await cli('sync', 'settlements', '--from', from, '--to', to)).code).toBe(0);

    const clean = await cli('cache', 'verify', '--json');
    expect(clean.code).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ from, to, dates: 3, mismatches: [] });
    // Progress on stderr, a line a date when it is not a terminal.
    expect(clean.stderr).toContain('3/3 dates checked');

    const db = new Database(join(dir, 'cache', `${profileId}.sqlite`));
    try {
      db.prepare('UPDATE settlements SET amount = amount + ? WHERE id = ?').run(BILLION, oneRecord(db, from).id);
    } finally {
      db.close();
    }
    const tampered = await cli('cache', 'verify', '--json');
    expect(tampered.code).toBe(1);
    expect((JSON.parse(tampered.stdout) as CacheVerifyResult).affectedDates).toEqual([from]);
    const human = await cli('cache', 'verify', '--from', from, '--to', from);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain(`re-fetch them from the API with sync settlements (${from})`);
    expect((await cli('cache', 'verify', '--from', to, '--to', to)).code).toBe(0);
    expect((await cli('cache', 'verify', '--from', 'yesterday')).code).toBe(2);
  });
});
