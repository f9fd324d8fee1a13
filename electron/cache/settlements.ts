/**
 * The settlements repository: the sync writes a date at a time through `beginDate`; the UI and the CLI
 * read pages, totals and aggregates, each with the time its range was last synced ("as of").
 *
 * Totals and aggregates of current records with any filter but text search are read from the rollup (a
 * few hundred rows a day, however many records; settlement-rollup.ts); a search only UTRs match, from its UTR
 * batches and their sums by payment mode; another search, or vanished records, sum the records themselves. All are
 * exact SQL integer sums, read as bigints and refused past 2^53 rather than rounded.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { z } from 'zod';
import {
  GRID_FIRST_ROWS,
  settlementFilter,
  settlementQuery,
  type CachedSettlement,
  type SettlementAggregate,
  type SettlementFilter,
  type SettlementPageResult,
  type SettlementQuery,
  type SettlementSort,
  type SettlementSums,
  type SettlementTotals,
} from '../../shared/settlement-query';
import type { SettlementFacets } from '../../shared/ipc/settlements';
import { EXCEPTIONS_SQL, FILTER_SQL, toSqlFilter, type FilterParams, type ResolvedSource } from './settlement-filter';
import { createDuplicateRule } from './settlement-duplicates';
import { createChangeWriter } from './settlement-changes';
import { beginDate, prepareIngest, type DateScope } from './settlement-ingest';
import { createSettlementVerifier } from './settlement-verify';
import { createDataGeneration } from './data-generation';
import { createSchemaGuard } from './schema-check';
import { DEFAULT_SORT, createSettlementPages } from './settlement-pages';
import { createFilingOrder } from './settlement-filing-order';
import { DEBIT_SUMS, ROLLUP_WHERE } from './settlement-rollup';
import { createSearchKeys } from './search-keys';
import { createSortKeys, createSortedDays } from './sort-keys';
import { SEARCHED_ROWS, SEARCH_WITH, createSearchPlanner } from './settlement-search';
import { exactNumber, prepareAll } from './statements';

const SUMS = `count(*), sum(amount), sum(mer_service_fee), sum(mer_service_tax), sum(settled_amount), ${DEBIT_SUMS}`;
const ROLLUP_SUMS = 'sum(count), sum(amount), sum(fees), sum(taxes), sum(settled), sum(refunds), sum(chargebacks)';
const RECORDS_WHERE = `id BETWEEN :lo AND :hi AND ${FILTER_SQL}`;
/** The UTR batches (and their sums by payment mode) of a search `batchesCover` answers. */
const BATCHES_WHERE = `date BETWEEN :from AND :to AND (:pg IS NULL OR pg = :pg) AND utr LIKE :search ESCAPE '\\'`;

/**
 * The ids of the current exceptions of `:from`-`:to` that the grid leaves out as resolved (`:hideResolved`, as in
 * EXCEPTIONS_SQL): from the resolved states, each record found by its key in the index over current exceptions, one
 * probe per distinct set of rule flags the range's rollup holds. Resolved exceptions are few beside the exceptions.
 */
const RESOLVED_OF = (table: string, hide: number) => `SELECT s.id FROM ${table} AS st CROSS JOIN settlements AS s
    ON s.exception_flags IN (SELECT exception_flags FROM settlement_rollup
                             WHERE date BETWEEN :from AND :to AND exception_flags <> 0)
   AND s.date = st.date AND s.pg = st.pg AND s.pg_transaction_id = st.pg_transaction_id
   AND s.settlement_date = st.settlement_date
  WHERE :hideResolved = ${hide} AND st.state = 'resolved' AND st.date BETWEEN :from AND :to
    AND s.exception_flags <> 0 AND s.vanished_at IS NULL`;
const RESOLVED_WHERE = `id IN (${RESOLVED_OF('settlement_exception_states', 1)}
                               UNION ALL ${RESOLVED_OF('desk_exception_states', 2)})
  AND ${RECORDS_WHERE} AND exception_flags <> 0`;

/** Every gateway stays in its menu; the other menus follow the chosen gateway. */
const FACET_WHERE = 'date BETWEEN :from AND :to AND count > 0 AND (:pg IS NULL OR pg = :pg)';

const SQL = {
  totalsFromRollup: `SELECT ${ROLLUP_SUMS} FROM settlement_rollup WHERE ${ROLLUP_WHERE}`,
  totalsFromBatches: `SELECT sum(records), sum(amount), sum(fees), sum(taxes), sum(settled), sum(refunds), sum(chargebacks)
                      FROM settlement_batches WHERE ${BATCHES_WHERE}`,
  totals: `SELECT ${SUMS} FROM settlements WHERE ${RECORDS_WHERE}`,
  totalsOfExceptions: `SELECT ${SUMS} FROM settlements WHERE ${RECORDS_WHERE} ${EXCEPTIONS_SQL}`,
  totalsOfMatches: `${SEARCH_WITH} SELECT ${SUMS} FROM ${SEARCHED_ROWS} WHERE ${RECORDS_WHERE}`,
  totalsOfMatchedExceptions: `${SEARCH_WITH} SELECT ${SUMS} FROM ${SEARCHED_ROWS} WHERE ${RECORDS_WHERE} ${EXCEPTIONS_SQL}`,
  aggregateFromRollup: `SELECT date, pg, payment_mode, ${ROLLUP_SUMS} FROM settlement_rollup WHERE ${ROLLUP_WHERE}
                        GROUP BY date, pg, payment_mode HAVING sum(count) <> 0 ORDER BY date, pg, payment_mode`,
  aggregateFromBatches: `SELECT date, pg, payment_mode, ${ROLLUP_SUMS} FROM settlement_batch_modes WHERE ${BATCHES_WHERE}
                         GROUP BY date, pg, payment_mode ORDER BY date, pg, payment_mode`,
  totalsOfResolved: `SELECT ${SUMS} FROM settlements WHERE ${RESOLVED_WHERE}`,
  aggregateOfResolved: `SELECT date, pg, payment_mode, ${SUMS} FROM settlements WHERE ${RESOLVED_WHERE}
                        GROUP BY date, pg, payment_mode`,
  aggregate: `SELECT date, pg, payment_mode, ${SUMS} FROM settlements WHERE ${RECORDS_WHERE}
              GROUP BY date, pg, payment_mode ORDER BY date, pg, payment_mode`,
  aggregateOfExceptions: `SELECT date, pg, payment_mode, ${SUMS} FROM settlements WHERE ${RECORDS_WHERE} ${EXCEPTIONS_SQL}
                          GROUP BY date, pg, payment_mode ORDER BY date, pg, payment_mode`,
  aggregateOfMatches: `${SEARCH_WITH} SELECT date, pg, payment_mode, ${SUMS} FROM ${SEARCHED_ROWS} WHERE ${RECORDS_WHERE}
                       GROUP BY date, pg, payment_mode ORDER BY date, pg, payment_mode`,
  aggregateOfMatchedExceptions: `${SEARCH_WITH} SELECT date, pg, payment_mode, ${SUMS} FROM ${SEARCHED_ROWS}
                       WHERE ${RECORDS_WHERE} ${EXCEPTIONS_SQL} GROUP BY date, pg, payment_mode ORDER BY date, pg, payment_mode`,
  syncedDays: `SELECT date, scope, synced_at FROM settlement_days WHERE date BETWEEN ? AND ?`,
  lastSynced: `SELECT max(synced_at) AS at FROM settlement_days`,
  scopes: `SELECT scope FROM settlement_days WHERE date = ? ORDER BY scope`,
  facets: `SELECT DISTINCT 'pg', pg FROM settlement_rollup WHERE date BETWEEN :from AND :to AND count > 0
           UNION SELECT DISTINCT 'paymentModes', payment_mode FROM settlement_rollup WHERE ${FACET_WHERE}
           UNION SELECT DISTINCT 'orderStatuses', order_status FROM settlement_rollup WHERE ${FACET_WHERE}
           UNION SELECT DISTINCT 'pgStatuses', pg_status FROM settlement_rollup WHERE ${FACET_WHERE}
           ORDER BY 1, 2`,
} as const;

/** Count, amount, fees, taxes, settled, refunds and chargebacks: what every totals and aggregate statement reads. */
type SumRow = [bigint | null, bigint | null, bigint | null, bigint | null, bigint | null, bigint | null, bigint | null];
const NO_SUMS = (): bigint[] => [0n, 0n, 0n, 0n, 0n, 0n, 0n];

/** A row of sums to take away. */
const negated = (row: SumRow): SumRow => row.map((v) => (v === null ? null : -v)) as SumRow;

/** Adds a row of sums to `total`, an empty sum (NULL) as nothing. */
function addSums(total: bigint[], row: SumRow): void {
  for (let i = 0; i < row.length; i++) total[i]! += row[i] ?? 0n;
}

/** The figures of a row of sums; sales are the amount less the refunds and chargebacks, so the three add up to it. */
function sums(row: SumRow): SettlementSums {
  const [count, amount, fees, taxes, settled, refunds, chargebacks] = row;
  return {
    count: exactNumber(count, 'count'),
    amount: exactNumber(amount, 'total amount'),
    fees: exactNumber(fees, 'total fees'),
    taxes: exactNumber(taxes, 'total taxes'),
    settled: exactNumber(settled, 'total settled'),
    sales: exactNumber((amount ?? 0n) - (refunds ?? 0n) - (chargebacks ?? 0n), 'total sales'),
    refunds: exactNumber(refunds, 'total refunds'),
    chargebacks: exactNumber(chargebacks, 'total chargebacks'),
  };
}

export function createSettlementsRepository(db: Database, now: () => Date, options: { nativeBinding?: string } = {}) {
  const sql = prepareAll(db, SQL);
  for (const s of [sql.totalsFromRollup, sql.totalsFromBatches, sql.totals, sql.totalsOfExceptions]) {
    s.raw().safeIntegers();
  }
  for (const s of [sql.totalsOfMatches, sql.totalsOfMatchedExceptions]) s.raw().safeIntegers();
  for (const s of [sql.aggregateFromRollup, sql.aggregateFromBatches, sql.aggregate, sql.aggregateOfExceptions]) {
    s.raw().safeIntegers();
  }
  for (const s of [sql.aggregateOfMatches, sql.aggregateOfMatchedExceptions]) s.raw().safeIntegers();
  for (const s of [sql.totalsOfResolved, sql.aggregateOfResolved]) s.raw().safeIntegers();
  const verifier = createSettlementVerifier(db);
  const sortedDays = createSortedDays(db);
  const ingest = {
    db,
    sql: prepareIngest(db),
    sortedDays,
    duplicates: createDuplicateRule(db, sortedDays),
    changes: createChangeWriter(db),
    now,
    recomputeDate: verifier.recomputeDate,
    checkSchema: createSchemaGuard(db, options.nativeBinding),
  };
  const search = createSearchPlanner(db);
  const pages = createSettlementPages(db, search);
  const filingOrder = createFilingOrder(db);
  const generation = createDataGeneration(db);

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

  function readPage(input: SettlementQuery, resolved: ResolvedSource = null) {
    const q = settlementQuery.parse(input);
    const { params, exceptionsOnly, rollupCovers } = toSqlFilter(q, resolved);
    return {
      params,
      ...pages.page(params, exceptionsOnly, rollupCovers, {
        sort: q.sort,
        after: q.after,
        position: q.position,
        limit: q.limit,
      }),
    };
  }

  function query(input: SettlementQuery, resolved: ResolvedSource = null): SettlementPageResult {
    const { params, rows, nextCursor } = readPage(input, resolved);
    return { rows, nextCursor, asOf: asOf(params) };
  }

  /**
   * The statement a read uses and the parameters it binds (one place, so `explain` shows what runs), for a filter
   * already checked by `settlementFilter` or `settlementQuery`.
   */
  function plan(
    read: 'query' | 'totals' | 'aggregate',
    q: z.output<typeof settlementFilter> & { sort?: SettlementSort },
    resolved: ResolvedSource = null,
  ): { statement: Statement; params: object; asked: FilterParams; less?: Statement } {
    const { params: asked, exceptionsOnly, rollupCovers } = toSqlFilter(q, resolved);
    if (read !== 'query' && batchesCover(q, asked, exceptionsOnly)) {
      return { statement: read === 'totals' ? sql.totalsFromBatches : sql.aggregateFromBatches, params: asked, asked };
    }
    // A walked search reads only the dates that may hold a match, as its pages do (settlement-search.ts): a UTR's
    // totals walked both dates of a 2,000,000-row range (400 ms) for the one that holds its batch.
    const { keyed, params } = search.forRead(asked);
    if (read === 'query') {
      return {
        statement: pages.statement(q.sort ?? DEFAULT_SORT, exceptionsOnly, keyed),
        params: { ...params, kId: 0, kValue: null, limit: 1 },
        asked,
      };
    }
    if (asked.state === 'current' && asked.search === null && asked.hideResolved !== 0) {
      // The grid's "Exceptions only": the rollup's exceptions less the resolved ones among them, where walking every
      // exception of the range for its state read for about 100 ms a read at 580,000 records (issue 33).
      const [statement, less] =
        read === 'totals'
          ? [sql.totalsFromRollup, sql.totalsOfResolved]
          : [sql.aggregateFromRollup, sql.aggregateOfResolved];
      return { statement, params: { ...params, exceptionsOnly: 1 }, asked, less };
    }
    const [fromRollup, fromRecords, fromExceptions] = keyed
      ? read === 'totals'
        ? [null, sql.totalsOfMatches, sql.totalsOfMatchedExceptions]
        : [null, sql.aggregateOfMatches, sql.aggregateOfMatchedExceptions]
      : read === 'totals'
        ? [sql.totalsFromRollup, sql.totals, sql.totalsOfExceptions]
        : [sql.aggregateFromRollup, sql.aggregate, sql.aggregateOfExceptions];
    return rollupCovers && fromRollup
      ? { statement: fromRollup, params: { ...params, exceptionsOnly: Number(exceptionsOnly) }, asked }
      : { statement: exceptionsOnly ? fromExceptions : fromRecords, params, asked };
  }

  /**
   * The last search's answer to `batchesCover`, with the data's generation it holds for: the chart's read follows the
   * totals' for the same search, and counting the matches of a 250,000-record batch again took it 15–100 ms.
   */
  let lastCover: { key: string; covers: boolean } | null = null;
  /**
   * Whether a search's totals and chart are its UTR batches' and their sums by payment mode (settlement-rollup.ts)
   * instead of a walk of its records (a UTR of a 250,000-record batch: 560-720 ms summed from the records, 440-560 ms
   * for its chart, issue 33): current records, no filter the batches do not hold, and every match one of those
   * batches' records, which holds when the matches counted by the keys (at least one per such record) are no more
   * than the batches' records.
   */
  function batchesCover(q: z.output<typeof settlementFilter>, asked: FilterParams, exceptionsOnly: boolean): boolean {
    if (asked.search === null || asked.state !== 'current' || exceptionsOnly) return false;
    if (q.paymentMode || q.orderStatus || q.pgStatus || asked.ruleBit !== null) return false;
    const key = `${generation()} ${JSON.stringify(asked)}`;
    if (lastCover?.key === key) return lastCover.covers;
    const [records] = sql.totalsFromBatches.all(asked)[0] as SumRow;
    const inBatches = Number(records ?? 0n);
    const covers = search.matchesUpTo(asked, inBatches + 1) === inBatches;
    lastCover = { key, covers };
    return covers;
  }

  /** The plan's rows, and those of the rows it subtracts (the resolved exceptions), if any. */
  function rowsOf<R>(read: 'totals' | 'aggregate', input: SettlementFilter, resolved: ResolvedSource) {
    const { statement, params, asked, less } = plan(read, settlementFilter.parse(input), resolved);
    return { rows: statement.all(params) as R[], less: (less?.all(params) ?? []) as R[], asOf: asOf(asked) };
  }

  function totals(input: SettlementFilter, resolved: ResolvedSource = null): SettlementTotals {
    const { rows, less, asOf } = rowsOf<SumRow>('totals', input, resolved);
    const total = NO_SUMS();
    for (const row of rows) addSums(total, row);
    for (const row of less) addSums(total, negated(row));
    return { ...sums(total as SumRow), asOf };
  }

  function aggregate(input: SettlementFilter, resolved: ResolvedSource = null): SettlementAggregate {
    const { rows, less, asOf } = rowsOf<[string, string, string, ...SumRow]>('aggregate', input, resolved);
    // One row per group, in the statement's order (date, gateway, payment mode), less its resolved exceptions'; a
    // group whose every record is subtracted is no group. Without any to subtract, the rows are the groups: a
    // status's chart over 29 days is 580 of them, whose copying into groups took longer than reading them.
    const groups = less.length === 0 ? rows : subtracted(rows, less);
    const total = NO_SUMS();
    const byDate: SettlementAggregate['byDate'] = [];
    for (const row of groups) {
      const values = row.slice(3) as SumRow;
      if ((values[0] ?? 0n) === 0n) continue;
      addSums(total, values);
      byDate.push({ date: row[0], pg: row[1], paymentMode: row[2], ...sums(values) });
    }
    return { byDate, total: sums(total as SumRow), asOf };
  }

  /** Each group of `rows` less the same group of `less`, in the order of `rows`. */
  function subtracted<R extends [string, string, string, ...SumRow]>(rows: R[], less: R[]): R[] {
    const groups = new Map<string, R>();
    for (const row of rows) groups.set(`${row[0]}|${row[1]}|${row[2]}`, [...row] as R);
    for (const [date, pg, paymentMode, ...values] of less) {
      const group = groups.get(`${date}|${pg}|${paymentMode}`);
      if (group) values.forEach((v, i) => (group[i + 3] = ((group[i + 3] as bigint | null) ?? 0n) - (v ?? 0n)));
    }
    return [...groups.values()];
  }

  return {
    /** Each date's records against their digest, and its rollup and batches against its rows (settlement-verify.ts). */
    verifier,

    /** Starts (or resumes) writing one date of a sync run. */
    beginDate: (scope: DateScope) => beginDate(ingest, scope),

    /** The search keys of dates whose records changed, written after a sync (search-keys.ts). */
    searchKeys: createSearchKeys(db),

    /** The sort keys of dates whose records changed, written after a sync (sort-keys.ts). */
    sortKeys: createSortKeys(db, sortedDays),

    query,

    /**
     * The grid's first screen of `query`'s filter in `sort`, read only for what that leaves kept (sort-warming.ts), and
     * nothing where neither the keys nor the rollup would answer it.
     */
    warmSort(query: SettlementQuery, sort: SettlementSort, resolved: ResolvedSource = null): void {
      const q = settlementQuery.parse({ ...query, sort, after: undefined, position: undefined });
      const { params, exceptionsOnly, rollupCovers } = toSqlFilter(q, resolved);
      pages.warm(params, exceptionsOnly, rollupCovers, sort, GRID_FIRST_ROWS);
    },

    /** Records that break a reconciliation rule, paged like `query`. */
    exceptions: (input: SettlementQuery) => query({ ...input, exceptionsOnly: true }),

    /** A page without its "as of" time: what a reader walking a whole range (an export) needs, page after page. */
    page(input: SettlementQuery): Omit<SettlementPageResult, 'asOf'> {
      const { rows, nextCursor } = readPage(input);
      return { rows, nextCursor };
    },

    /**
     * Every record the filter selects in filing order (date, gateway, settlement time), `pageRows` at a time: what
     * an export writes. Call inside one read transaction, as the pages are read lazily.
     */
    inFilingOrder(input: SettlementFilter, pageRows: number): Generator<CachedSettlement[]> {
      const { params, exceptionsOnly } = toSqlFilter(settlementFilter.parse(input));
      return filingOrder.pages(params, exceptionsOnly, pageRows);
    },

    /**
     * The totals bar's sums, `resolved` saying whose states leave resolved exceptions out (settlement-filter.ts). A
     * walk of a million records reads for about 200 ms: the window's reads run in a worker thread
     * (settlement-read-worker.ts), so main's event loop never waits on one; the CLI and exports read here directly.
     */
    totals,

    /** The chart's sums per date x gateway x payment mode, read as `totals` is. */
    aggregate,

    /** The values the range's current records hold, per filter field, sorted: the filter menus. */
    facets(range: { from: string; to: string; pg?: string }): SettlementFacets {
      const out: SettlementFacets = { pgs: [], paymentModes: [], orderStatuses: [], pgStatuses: [] };
      for (const [field, value] of sql.facets.raw().all({ ...range, pg: range.pg ?? null }) as [string, string][]) {
        out[field === 'pg' ? 'pgs' : (field as keyof SettlementFacets)].push(value);
      }
      return out;
    },

    /**
     * The gateways whose records of `date` this cache holds whole, from the syncs it ran: null when one synced every
     * gateway of the date; else the gateways synced alone (`sync settlements --pg`), which may be none.
     */
    gatewaysHeldWhole(date: string): string[] | null {
      const scopes = sql.scopes.pluck().all(date) as string[];
      return scopes.includes('') ? null : scopes;
    },

    /** When any date was last synced: the status bar's "last synced". */
    lastSyncedAt: () => (sql.lastSynced.get() as { at: string | null }).at,

    /** When the dates `from` to `to` were last synced, every gateway: the Settlements screen's "Synced" for them. */
    syncedAsOf: (from: string, to: string) => asOf({ from, to, pg: null }),

    /** SQLite's plan for a read, one line per step: for diagnostics and the tests that pin the indexes. */
    explain(read: 'query' | 'totals' | 'aggregate', input: SettlementQuery, resolved: ResolvedSource = null): string[] {
      const { statement, params, less } = plan(read, settlementQuery.parse(input), resolved);
      return [statement, ...(less ? [less] : [])].flatMap((s) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${s.source}`).all(params) as { detail: string }[]).map((r) => r.detail),
      );
    },
  };
}
export type SettlementsRepository = ReturnType<typeof createSettlementsRepository>;
