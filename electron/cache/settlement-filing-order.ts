/**
 * Settlements in the order an accountant files them: date, gateway, settlement time, then arrival. No index serves
 * that order (each would cost the ingest a random B-tree insert per row, settlement-pages.ts), so per date the
 * ids alone are sorted once, by SQLite on the three keys rather than whole rows, and the rows are then read a page
 * at a time by id. A date's ids are held while it is read, unboxed: 8 bytes a record, 8 MB for a million-record day
 * (a plain array of them would take three times that).
 */
import type { Database, Statement } from 'better-sqlite3';
import type { CachedSettlement } from '../../shared/settlement-query';
import { EXCEPTIONS_SQL, FILTER_SQL, type FilterParams } from './settlement-filter';
import { PER_DAY, dayNumber } from './settlement-ids';
import { READ_COLUMNS, readRowToCached } from './settlement-rows';

/** The ids a statement selects, in its order, into a typed array grown by doubling. */
function idsOf(statement: Statement, params: object): Float64Array {
  let ids = new Float64Array(1024);
  let n = 0;
  for (const id of statement.iterate(params) as IterableIterator<number>) {
    if (n === ids.length) {
      const grown = new Float64Array(n * 2);
      grown.set(ids);
      ids = grown;
    }
    ids[n++] = id;
  }
  return ids.subarray(0, n);
}

export function createFilingOrder(db: Database) {
  const idsOfDay = (exceptions: string) =>
    db
      .prepare(
        `SELECT id FROM settlements WHERE id BETWEEN :lo AND :hi AND ${FILTER_SQL} ${exceptions}
         ORDER BY pg, settlement_date, id`,
      )
      .pluck();
  const ids = { all: idsOfDay(''), exceptions: idsOfDay(EXCEPTIONS_SQL) };
  const rowsById = db
    .prepare(`SELECT ${READ_COLUMNS.join(', ')} FROM settlements WHERE id IN (SELECT value FROM json_each(:ids))`)
    .raw(true);

  /** Pages of at most `pageRows` records, in filing order, date by date. */
  function* pages(filter: FilterParams, exceptionsOnly: boolean, pageRows: number): Generator<CachedSettlement[]> {
    const statement = exceptionsOnly ? ids.exceptions : ids.all;
    for (let day = dayNumber(filter.from); day <= dayNumber(filter.to); day++) {
      const dayIds = idsOf(statement, { ...filter, lo: day * PER_DAY, hi: (day + 1) * PER_DAY - 1 });
      for (let at = 0; at < dayIds.length; at += pageRows) {
        const page = Array.from(dayIds.subarray(at, at + pageRows));
        const byId = new Map<number, unknown[]>();
        for (const row of rowsById.all({ ids: JSON.stringify(page) }) as unknown[][]) byId.set(row[0] as number, row);
        yield page.map((id) => readRowToCached(byId.get(id)!));
      }
    }
  }
  return { pages };
}
