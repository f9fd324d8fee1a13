/**
 * Whether the cache still holds what the API sent, and the one repair it makes itself.
 *
 * SQLite's checks (integrity.ts, schema-check.ts) see a damaged page or a foreign object, not a changed value: a
 * record whose amount was edited with the app closed is read and shown as it is. So each date is held against what
 * its last sync stored beside it:
 *  - its current records, per gateway, against the digest of what the last pass over the date saw
 *    (`settlement_manifests.digest`, record-digest.ts: every field of every record, with the count). Only where that
 *    digest speaks for the rows: the pass was stable (a pass whose list moved may have seen a record twice), and no
 *    later sync wrote pages of the date without finishing it (its rows moved on from the digest honestly);
 *  - its rollup, batches and batch modes (the chart's sums per batch and payment mode) against sums of its rows.
 * A mismatch is reported, never repaired from the tampered data: re-fetching the date from the API is the repair.
 * The digests are a check that the rows are the ones the sync wrote, not a signature: whoever can write the file can
 * write a matching digest too.
 *
 * The repair the cache does make is the rollup's: the ingest recomputes a date's rollup, batches and batch modes from its rows
 * when it closes a date it held rows or sums of before (recomputeDate; a first sync's deltas start from nothing). They are kept by deltas page by page (settlement-rollup.ts), and a delta
 * applied to an edited rollup, or to a rollup that still counts a row deleted behind our back, carries the edit
 * forward: a re-sync made totals negative, or counted a deleted row twice. Recomputed at the close, a re-sync leaves
 * the date exactly the sum of its rows whatever the file held before.
 */
import type { Database } from 'better-sqlite3';
import type { CacheMismatch, CacheVerifyProgress, CacheVerifyResult } from '../../shared/cache-verify';
import { formatCalendarDate, formatCount } from '../../shared/format';
import { formatMoney } from '../../shared/money';
import { EMPTY_DIGEST, createPassDigest } from './record-digest';
import { idRange } from './settlement-ids';
import { DEBIT_SUMS } from './settlement-rollup';
import { FIELD_COLUMNS, type FieldValues } from './settlement-rows';
import { prepareAll } from './statements';

const CURRENT = 'FROM settlements WHERE id BETWEEN :lo AND :hi AND vanished_at IS NULL';
const ROLLUP_GROUP = 'pg, payment_mode, order_status, pg_status, exception_flags';
const BATCH_GROUP = "pg, coalesce(utr, ''), settlement_date";
const ROLLUP_OF_ROWS = `SELECT ${ROLLUP_GROUP}, count(*), sum(amount), sum(mer_service_fee), sum(mer_service_tax),
    sum(settled_amount), ${DEBIT_SUMS} ${CURRENT} GROUP BY ${ROLLUP_GROUP}`;
const BATCHES_OF_ROWS = `SELECT ${BATCH_GROUP}, count(*), sum(amount), sum(mer_service_fee), sum(mer_service_tax),
    sum(merchant_subvention_amount), sum(settled_amount), sum(exception_flags <> 0), ${DEBIT_SUMS} ${CURRENT}
    GROUP BY ${BATCH_GROUP}`;
const MODE_GROUP = "pg, coalesce(utr, ''), payment_mode";
const MODES_OF_ROWS = `SELECT ${MODE_GROUP}, count(*), sum(amount), sum(mer_service_fee), sum(mer_service_tax),
    sum(settled_amount), ${DEBIT_SUMS} ${CURRENT} GROUP BY ${MODE_GROUP}`;

const SQL = {
  dropRollup: `DELETE FROM settlement_rollup WHERE date = :date`,
  fillRollup: `INSERT INTO settlement_rollup
                 (date, ${ROLLUP_GROUP}, count, amount, fees, taxes, settled, refunds, chargebacks)
               SELECT :date, * FROM (${ROLLUP_OF_ROWS})`,
  dropBatches: `DELETE FROM settlement_batches WHERE date = :date`,
  fillBatches: `INSERT INTO settlement_batches
                  (date, pg, utr, settlement_date, records, amount, fees, taxes, subvention, settled, exceptions,
                   refunds, chargebacks)
                SELECT :date, * FROM (${BATCHES_OF_ROWS})`,
  dropBatchModes: `DELETE FROM settlement_batch_modes WHERE date = :date`,
  fillBatchModes: `INSERT INTO settlement_batch_modes
                     (date, pg, utr, payment_mode, count, amount, fees, taxes, settled, refunds, chargebacks)
                   SELECT :date, * FROM (${MODES_OF_ROWS})`,
  rollupOfRows: `${ROLLUP_OF_ROWS} ORDER BY ${ROLLUP_GROUP}`,
  rollupStored: `SELECT ${ROLLUP_GROUP}, count, amount, fees, taxes, settled, refunds, chargebacks FROM settlement_rollup
                 WHERE date = :date AND NOT (count = 0 AND amount = 0 AND fees = 0 AND taxes = 0 AND settled = 0
                                             AND refunds = 0 AND chargebacks = 0)
                 ORDER BY ${ROLLUP_GROUP}`,
  batchesOfRows: `${BATCHES_OF_ROWS} ORDER BY ${BATCH_GROUP}`,
  batchesStored: `SELECT pg, utr, settlement_date, records, amount, fees, taxes, subvention, settled, exceptions,
                    refunds, chargebacks
                  FROM settlement_batches WHERE date = :date
                    AND NOT (records = 0 AND amount = 0 AND fees = 0 AND taxes = 0 AND subvention = 0 AND settled = 0
                             AND exceptions = 0 AND refunds = 0 AND chargebacks = 0)
                  ORDER BY pg, utr, settlement_date`,
  batchModesOfRows: `${MODES_OF_ROWS} ORDER BY ${MODE_GROUP}`,
  batchModesStored: `SELECT pg, utr, payment_mode, count, amount, fees, taxes, settled, refunds, chargebacks
                     FROM settlement_batch_modes WHERE date = :date
                       AND NOT (count = 0 AND amount = 0 AND fees = 0 AND taxes = 0 AND settled = 0 AND refunds = 0
                                AND chargebacks = 0)
                     ORDER BY pg, utr, payment_mode`,
  currentRows: `SELECT pg, pg_transaction_id, settlement_date, settled_amount, ${FIELD_COLUMNS.join(', ')} ${CURRENT}`,
  /** The latest manifest of each gateway of the date, with the latest run that stored a page of it for that gateway. */
  manifests: `SELECT m.pg, m.digest, m.records, m.stable,
                (SELECT max(d.run_id) FROM sync_run_dates d JOIN sync_runs r ON r.id = d.run_id
                 WHERE d.date = m.date AND d.pages > 0 AND (r.pg IS NULL OR r.pg = m.pg)) > m.run_id AS overtaken
              FROM settlement_manifests m
              WHERE m.date = :date
                AND m.run_id = (SELECT max(run_id) FROM settlement_manifests l WHERE l.date = m.date AND l.pg = m.pg)
              ORDER BY m.pg`,
  /** Every date the cache holds anything of: synced, or left with sums by a sync that did not finish. */
  dates: `SELECT date FROM settlement_days WHERE date BETWEEN :from AND :to
          UNION SELECT date FROM settlement_rollup WHERE date BETWEEN :from AND :to
          UNION SELECT date FROM settlement_batches WHERE date BETWEEN :from AND :to
          UNION SELECT date FROM settlement_batch_modes WHERE date BETWEEN :from AND :to
          ORDER BY date`,
} as const;

/**
 * The dates the app checks without being asked (the Settlements screen's banner): the newest week of synced dates,
 * what a desk reads most and a re-sync most often rewrites. The whole cache is `cache verify`'s.
 */
export const RECENT_DATES = 7;

/** Every date a cache can hold (settlement-ids.ts starts at 1970). */
const ALL = { from: '1970-01-01', to: '9999-12-31' };

type SumRow = (string | number)[];

/** What one date's check found, with how many current records it read. */
interface DateCheck {
  mismatches: CacheMismatch[];
  records: number;
  digested: boolean;
}

export function createSettlementVerifier(db: Database) {
  const sql = prepareAll(db, SQL);
  const rows = (name: keyof typeof SQL, params: Record<string, unknown>) => sql[name].raw().all(params) as SumRow[];

  /** Records, amount and net settled of a set of grouped sums, for the sentence; the amount follows the records. */
  const totals = (sums: SumRow[], recordsAt: number, settledAt: number) => {
    const sum = (at: number) => sums.reduce((t, r) => t + Number(r[at]), 0);
    return { records: sum(recordsAt), amount: sum(recordsAt + 1), settled: sum(settledAt) };
  };
  const describe = (t: ReturnType<typeof totals>) =>
    `${formatCount(t.records)} records, ${formatMoney(t.amount)} amount, ${formatMoney(t.settled)} settled`;
  const sameRows = (a: SumRow[], b: SumRow[]) => JSON.stringify(a) === JSON.stringify(b);

  /** The date's rollup, batches and batch modes against sums of its rows. */
  function checkSums(date: string, lo: number, hi: number): CacheMismatch[] {
    const out: CacheMismatch[] = [];
    const compare = (kind: Exclude<CacheMismatch['kind'], 'records'>, stored: SumRow[], ofRows: SumRow[]) => {
      if (sameRows(stored, ofRows)) return;
      // The records are the first figure after the group's columns; the settled sum is the fifth figure, but the
      // sixth of a batch row (subvention precedes it).
      const recordsAt = kind === 'rollup' ? 5 : 3;
      const settledAt = kind === 'batches' ? recordsAt + 5 : recordsAt + 4;
      const [s, r] = [describe(totals(stored, recordsAt, settledAt)), describe(totals(ofRows, recordsAt, settledAt))];
      const what = { rollup: 'totals', batches: 'bank batches', batch_modes: "bank batches' sums by payment mode" }[
        kind
      ];
      out.push({
        date,
        pg: null,
        kind,
        message:
          s === r
            ? `The ${what} of ${formatCalendarDate(date)} are grouped or summed otherwise than its records (${s} either way).`
            : `The ${what} of ${formatCalendarDate(date)} count ${s}; its records add up to ${r}.`,
      });
    };
    compare('rollup', rows('rollupStored', { date }), rows('rollupOfRows', { lo, hi }));
    compare('batches', rows('batchesStored', { date }), rows('batchesOfRows', { lo, hi }));
    compare('batch_modes', rows('batchModesStored', { date }), rows('batchModesOfRows', { lo, hi }));
    return out;
  }

  /** The date's current records, per gateway, against the digest its last sync stored. */
  function checkRecords(date: string, lo: number, hi: number) {
    const digest = createPassDigest(null);
    let records = 0;
    for (const [pg, txn, settledAt, settled, ...values] of sql.currentRows.raw().iterate({ lo, hi }) as Iterable<
      [string, string, string, number, ...FieldValues]
    >) {
      digest.addRow(pg, txn, settledAt, settled, values);
      records++;
    }
    const ofRows = digest.gateways();
    const manifests = sql.manifests.raw().all({ date }) as [string, string, number, number, number | null][];
    const trusted = manifests.filter(([, , , stable, overtaken]) => stable === 1 && overtaken !== 1);
    const mismatches: CacheMismatch[] = [];
    for (const [pg, stored, storedRecords] of trusted) {
      const found = ofRows.get(pg) ?? { records: 0, settled: 0, digest: EMPTY_DIGEST };
      if (found.digest === stored) continue;
      mismatches.push({
        date,
        pg,
        kind: 'records',
        message:
          `The records of ${formatCalendarDate(date)} (${pg || 'no gateway'}) are not the ones its last sync stored: ` +
          `${formatCount(found.records)} now against ${formatCount(storedRecords)} then` +
          (found.records === storedRecords ? ', with values changed since.' : '.'),
      });
    }
    // Every gateway with rows needs a digest that speaks for it; one with rows and no manifest at all is unchecked.
    const digested = manifests.length > 0 && trusted.length === manifests.length;
    return { mismatches, records, digested };
  }

  function checkDate(date: string): DateCheck {
    const { lo, hi } = idRange(date, date);
    // One read transaction: the sums and the digest see the same rows even while another connection writes.
    return db.transaction(() => {
      const records = checkRecords(date, lo, hi);
      return { ...records, mismatches: [...records.mismatches, ...checkSums(date, lo, hi)] };
    })();
  }

  return {
    /**
     * The date's rollup, batches and batch modes, recomputed from its current rows; call inside the transaction that closes it
     * (after its deltas are flushed, which this replaces for the date).
     */
    recomputeDate(date: string): void {
      const { lo, hi } = idRange(date, date);
      sql.dropRollup.run({ date });
      sql.fillRollup.run({ date, lo, hi });
      sql.dropBatches.run({ date });
      sql.fillBatches.run({ date, lo, hi });
      sql.dropBatchModes.run({ date });
      sql.fillBatchModes.run({ date, lo, hi });
    },
    /** The dates the cache holds anything of, oldest first. */
    dates(range: { from: string; to: string } = ALL): string[] {
      return sql.dates.pluck().all(range) as string[];
    },
    /**
     * Checks the dates given, one at a time with a turn of the event loop between (a date of 20,000 records is
     * tens of milliseconds), telling `onProgress` after each. Stopped by `signal`, it answers what it checked.
     */
    async verify(
      dates: readonly string[],
      options: { onProgress?: (p: CacheVerifyProgress) => void; signal?: AbortSignal } = {},
    ): Promise<CacheVerifyResult> {
      const mismatches: CacheMismatch[] = [];
      const undigested: string[] = [];
      let records = 0;
      let done = 0;
      for (const date of dates) {
        if (options.signal?.aborted) break;
        const check = checkDate(date);
        mismatches.push(...check.mismatches);
        if (!check.digested && check.records > 0) undigested.push(date);
        records += check.records;
        done++;
        options.onProgress?.({ datesDone: done, dates: dates.length, records });
        await new Promise((resolve) => setImmediate(resolve));
      }
      const checked = dates.slice(0, done);
      return {
        from: checked[0] ?? null,
        to: checked.at(-1) ?? null,
        dates: done,
        records,
        undigested,
        mismatches,
        affectedDates: [...new Set(mismatches.map((m) => m.date))],
      };
    },
  };
}
export type SettlementVerifier = ReturnType<typeof createSettlementVerifier>;
