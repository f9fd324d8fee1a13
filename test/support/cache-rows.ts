/** Every cached row of a range in the query's order, read page by page through the cache's own keyset cursors. */
import type { Cache } from '../../electron/cache/database';
import type { CachedSettlement, SettlementQuery } from '../../shared/settlement-query';

export function allCachedRows(
  cache: Cache,
  range: { from: string; to: string },
  filter: Partial<SettlementQuery> = {},
): CachedSettlement[] {
  const rows: CachedSettlement[] = [];
  let after: string | undefined;
  do {
    const page = cache.settlements.query({ ...range, ...filter, limit: 1000, after });
    rows.push(...page.rows);
    after = page.nextCursor ?? undefined;
  } while (after);
  return rows;
}
