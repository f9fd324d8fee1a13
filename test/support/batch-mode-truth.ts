/**
 * What the chart's sums per UTR batch and payment mode (settlement_batch_modes, migration 28) must hold, and what a
 * search's chart must show, summed here by direct SQL over the current records: the truth the cache's own tables
 * and reads are held against. Refunds are the negative lines without a dispute id, chargebacks those with one
 * (shared/reconciliation.ts's rule; the sandbox writes no dispute id of blanks).
 */
import type { Database } from 'better-sqlite3';

const SUMS = `count(*) AS count, sum(amount) AS amount, sum(mer_service_fee) AS fees, sum(mer_service_tax) AS taxes,
  sum(settled_amount) AS settled,
  sum(CASE WHEN amount < 0 AND dispute_id IS NULL THEN amount ELSE 0 END) AS refunds,
  sum(CASE WHEN amount < 0 AND dispute_id IS NOT NULL THEN amount ELSE 0 END) AS chargebacks`;

/** Every current record grouped by date x gateway x UTR ("" for none) x payment mode, in the table's key order. */
export function batchModesOfRecords(db: Database): unknown[] {
  return db
    .prepare(
      `SELECT date, pg, coalesce(utr, '') AS utr, payment_mode, ${SUMS} FROM settlements WHERE vanished_at IS NULL
       GROUP BY date, pg, coalesce(utr, ''), payment_mode ORDER BY date, pg, coalesce(utr, ''), payment_mode`,
    )
    .all();
}

/** The stored rows, as `batchModesOfRecords` names them. */
export function storedBatchModes(db: Database): unknown[] {
  return db
    .prepare(
      `SELECT date, pg, utr, payment_mode, count, amount, fees, taxes, settled, refunds, chargebacks
       FROM settlement_batch_modes ORDER BY date, pg, utr, payment_mode`,
    )
    .all();
}

/**
 * The chart of a search of `text` over `from`-`to` (a UTR, transaction id or order id starting with it, in any case),
 * as `settlements.aggregate` answers its `byDate`: per date x gateway x payment mode, with sales beside.
 */
export function chartOfSearch(db: Database, from: string, to: string, text: string) {
  const rows = db
    .prepare(
      `SELECT date, pg, payment_mode AS paymentMode, ${SUMS} FROM settlements
       WHERE vanished_at IS NULL AND date BETWEEN :from AND :to
         AND (utr LIKE :like OR order_id LIKE :like OR pg_transaction_id LIKE :like)
       GROUP BY date, pg, payment_mode ORDER BY date, pg, payment_mode`,
    )
    .all({ from, to, like: `${text}%` }) as { amount: number; refunds: number; chargebacks: number }[];
  return rows.map((r) => ({ ...r, sales: r.amount - r.refunds - r.chargebacks }));
}
