/** A settlement filter and sort answered by SQLite alone: what every read through the sort keys must equal. */
import type Database from 'better-sqlite3';
import { expect } from 'vitest';
import type { Cache } from '../../electron/cache/database';
import { ruleBit } from '../../electron/cache/settlement-rows';
import type { SettlementFilter, SettlementSort } from '../../shared/settlement-query';
import { allCachedRows } from './cache-rows';

/**
 * The ids of a filter's records (current by default) in a sort's order, `after` a row's sort value and id when given
 * (a keyset page's cursor), by a plain `ORDER BY … LIMIT … OFFSET …` on `db`.
 */
export function plainIds(
  db: Database.Database,
  filter: SettlementFilter,
  sort: SettlementSort,
  limit = -1,
  offset = 0,
  after?: { value: string | number; id: number },
): number[] {
  const where = ['date BETWEEN @from AND @to'];
  if (filter.state !== 'all')
    where.push(filter.state === 'vanished' ? 'vanished_at IS NOT NULL' : 'vanished_at IS NULL');
  if (filter.pg) where.push('pg = @pg');
  if (filter.paymentMode) where.push('payment_mode = @paymentMode');
  if (filter.orderStatus) where.push('order_status = @orderStatus');
  if (filter.pgStatus) where.push('pg_status = @pgStatus');
  if (filter.exceptionsOnly) where.push('exception_flags <> 0');
  if (filter.rule) where.push(`exception_flags & ${ruleBit(filter.rule)} <> 0`);
  const dir = sort.direction.toUpperCase();
  const column = sort.column === 'order_id' || sort.column === 'utr' ? `ifnull(${sort.column}, '')` : sort.column;
  const key = sort.column === 'date' ? '' : `${column} ${dir}, `;
  if (after) where.push(`(${column}, id) ${sort.direction === 'desc' ? '<' : '>'} (@afterValue, @afterId)`);
  return db
    .prepare(
      `SELECT id FROM settlements WHERE ${where.join(' AND ')} ORDER BY ${key}id ${dir} LIMIT @limit OFFSET @offset`,
    )
    .pluck()
    .all({ ...filter, limit, offset, afterValue: after?.value, afterId: after?.id }) as number[];
}

/** Every page of each filter in each sort, read through `cache`'s keyset cursors, equals the plain order on `plain`. */
export function expectEveryPagePlain(
  cache: Cache,
  plain: Database.Database,
  filters: readonly SettlementFilter[],
  sorts: readonly SettlementSort[],
): void {
  for (const filter of filters) {
    for (const sort of sorts) {
      const expected = plainIds(plain, filter, sort);
      expect(expected.length).toBeGreaterThan(0);
      expect(
        allCachedRows(cache, filter, { ...filter, sort }).map((r) => r.id),
        `${JSON.stringify(filter)} by ${sort.column} ${sort.direction}`,
      ).toEqual(expected);
    }
  }
}
