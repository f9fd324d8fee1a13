/**
 * The settlements repository: the sync writes a date at a time through `beginDate`; the UI and the CLI
 * read pages, totals and aggregates, each with the time its range was last synced ("as of").
 *
 * Totals and aggregates of current records with any filter but text search are read from the rollup (a
 * few hundred rows a day, however many records; settlement-rollup.ts); a search, or vanished records,
 * sum the records themselves. Both are exact SQL integer sums, read as bigints and refused past 2^53
 * rather than rounded.
 */
import type { Database } from 'better-sqlite3';
import {
  settlementFilter,
  settlementQuery,
  type SettlementAggregate,
  type SettlementFilter,
  type SettlementPageResult,
  type SettlementQuery,
  type SettlementSums,
  type SettlementTotals,
} from '../../shared/settlement-query';
import { EXCEPTIONS_SQL, FILTER_SQL, toSqlFilter, type FilterParams } from './settlement-filter';
import { createDuplicateRule } from './settlement-duplicates';
import { beginDate, prepareIngest, type DateScope } from './settlement-ingest';
import { DEFAULT_SORT, createSettlementPages } from './settlement-pages';
import { exactNumber, prepareAll } from './statements';

const SUMS = 'count(*), sum(amount), sum(mer_service_fee), sum(mer_service_tax), sum(settled_amount)';
const ROLLUP_SUMS = 'sum(count), sum(amount), sum(fees), sum(taxes), sum(settled)';
const ROLLUP_WHERE = `date BETWEEN :from AND :to AND (:pg IS NULL OR pg = :pg) AND (:mode IS NULL OR payment_mode = :mode)
  AND (:orderStatus IS NULL OR order_status = :orderStatus) AND (:pgStatus IS NULL OR pg_status = :pgStatus)
  AND (:ruleBit IS NULL OR exception_flags & :ruleBit <> 0) AND (:exceptionsOnly = 0 OR exception_flags <> 0)`;
const RECORDS_WHERE = `id BETWEEN :lo AND :hi AND ${FILTER_SQL}`;

const SQL = {
  totalsFromRollup: `SELECT ${ROLLUP_SUMS} FROM settlement_rollup WHERE ${ROLLUP_WHERE}`,
  totals: `SELECT ${SUMS} FROM settlements WHERE ${RECORDS_WHERE}`,
  totalsOfExceptions: `SELECT ${SUMS} FROM settlements WHERE ${RECORDS_WHERE} ${EXCEPTIONS_SQL}`,
  aggregateFromRollup: `SELECT date, pg, payment_mode, ${ROLLUP_SUMS} FROM settlement_rollup WHERE ${ROLLUP_WHERE}
                        GROUP BY date, pg, payment_mode HAVING sum(count) <> 0 ORDER BY date, pg, payment_mode`,
  aggregate: `SELECT date, pg, payment_mode, ${SUMS} FROM settlements WHERE ${RECORDS_WHERE}
              GROUP BY date, pg, payment_mode ORDER BY date, pg, payment_mode`,
  aggregateOfExceptions: `SELECT date, pg, payment_mode, ${SUMS} FROM settlements WHERE ${RECORDS_WHERE} ${EXCEPTIONS_SQL}
                          GROUP BY date, pg, payment_mode ORDER BY date, pg, payment_mode`,
  syncedDays: `SELECT date, scope, synced_at FROM settlement_days WHERE date BETWEEN ? AND ?`,
} as const;

type SumRow = [bigint | null, bigint | null, bigint | null, bigint | null, bigint | null];

function sums(row: SumRow): SettlementSums {
  const [count, amount, fees, taxes, settled] = row;
  return {
    count: exactNumber(count, 'count'),
    amount: exactNumber(amount, 'total amount'),
    fees: exactNumber(fees, 'total fees'),
    taxes: exactNumber(taxes, 'total taxes'),
    settled: exactNumber(settled, 'total settled'),
  };
}

export function createSettlementsRepository(db: Database, now: () => Date) {
  const sql = prepareAll(db, SQL);
  for (const s of [sql.totalsFromRollup, sql.totals, sql.totalsOfExceptions]) s.raw().safeIntegers();
  for (const s of [sql.aggregateFromRollup, sql.aggregate, sql.aggregateOfExceptions]) s.raw().safeIntegers();
  const ingest = { db, sql: prepareIngest(db), duplicates: createDuplicateRule(db), now };
  const pages = createSettlementPages(db);

  /** When the range was last synced: the oldest of its synced dates, null when none was. */
  function asOf(params: Pick<FilterParams, 'from' | 'to' | 'pg'>): string | null {
    const byDate = new Map<string, { all?: string; pgs: string[] }>();
    for (const [date, scope, syncedAt] of sql.syncedDays.raw().all(params.from, params.to) as [
      string,
      string,
      string,
    ][]) {
      const d = byDate.get(date) ?? byDate.set(date, { pgs: [] }).get(date)!;
      if (scope === '') d.all = syncedAt;
      else if (params.pg === null || scope === params.pg) d.pgs.push(syncedAt);
    }
    let oldest: string | null = null;
    for (const d of byDate.values()) {
      // A gateway's data was refreshed by the later of a full sync and its own; without a full sync, the
      // date is as old as its stalest gateway.
      const at = params.pg !== null ? [d.all, ...d.pgs].filter(Boolean).sort().at(-1) : (d.all ?? [...d.pgs].sort()[0]);
      if (at !== undefined && (oldest === null || at < oldest)) oldest = at;
    }
    return oldest;
  }

  function query(input: SettlementQuery): SettlementPageResult {
    const q = settlementQuery.parse(input);
    const { params, exceptionsOnly } = toSqlFilter(q);
    const result = pages.page(params, exceptionsOnly, { sort: q.sort, after: q.after, limit: q.limit });
    return { ...result, asOf: asOf(params) };
  }

  /** The statement a read uses and the parameters it binds (one place, so `explain` shows what runs). */
  function plan(read: 'query' | 'totals' | 'aggregate', input: SettlementQuery) {
    const q = settlementQuery.parse(input);
    const { params, exceptionsOnly, rollupCovers } = toSqlFilter(q);
    if (read === 'query') {
      return {
        statement: pages.statement(q.sort ?? DEFAULT_SORT, exceptionsOnly),
        params: { ...params, kId: 0, kValue: null, limit: 1 },
      };
    }
    const [fromRollup, fromRecords, fromExceptions] =
      read === 'totals'
        ? [sql.totalsFromRollup, sql.totals, sql.totalsOfExceptions]
        : [sql.aggregateFromRollup, sql.aggregate, sql.aggregateOfExceptions];
    return rollupCovers
      ? { statement: fromRollup, params: { ...params, exceptionsOnly: Number(exceptionsOnly) } }
      : { statement: exceptionsOnly ? fromExceptions : fromRecords, params };
  }

  return {
    /** Starts (or resumes) writing one date of a sync run. */
    beginDate: (scope: DateScope) => beginDate(ingest, scope),

    query,

    /** Records that break a reconciliation rule, paged like `query`. */
    exceptions: (input: SettlementQuery) => query({ ...input, exceptionsOnly: true }),

    totals(input: SettlementFilter): SettlementTotals {
      const { statement, params } = plan('totals', settlementFilter.parse(input));
      return { ...sums(statement.get(params) as SumRow), asOf: asOf(params) };
    },

    aggregate(input: SettlementFilter): SettlementAggregate {
      const { statement, params } = plan('aggregate', settlementFilter.parse(input));
      const rows = statement.all(params) as [string, string, string, ...SumRow][];
      const total: SumRow = [0n, 0n, 0n, 0n, 0n];
      const byDate = rows.map(([date, pg, paymentMode, ...values]) => {
        values.forEach((v, i) => (total[i] = (total[i] as bigint) + (v ?? 0n)));
        return { date, pg, paymentMode, ...sums(values) };
      });
      return { byDate, total: sums(total), asOf: asOf(params) };
    },

    asOf: (input: SettlementFilter) => asOf(toSqlFilter(settlementFilter.parse(input)).params),

    /** SQLite's plan for a read, one line per step: for diagnostics and the tests that pin the indexes. */
    explain(read: 'query' | 'totals' | 'aggregate', input: SettlementQuery): string[] {
      const { statement, params } = plan(read, input);
      return (db.prepare(`EXPLAIN QUERY PLAN ${statement.source}`).all(params) as { detail: string }[]).map(
        (r) => r.detail,
      );
    },
  };
}
export type SettlementsRepository = ReturnType<typeof createSettlementsRepository>;
