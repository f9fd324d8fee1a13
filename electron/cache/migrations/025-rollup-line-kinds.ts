import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 25,
  name: 'refunds and chargebacks in the rollup and the batches',
  // The Settlements bar and the Batches view show sales, refunds and chargebacks apart (issue 31 #5), read from the
  // rollup and the batches like every other figure there, so each group keeps the signed sums of its refunds and of
  // its chargebacks; sales are the amount less both, never stored apart. The rule is `lineKind`
  // (shared/reconciliation.ts): a negative amount is a chargeback with a dispute id, a refund without one (a dispute
  // id of blanks is none). A shipped migration is never edited, so the rule is written out here rather than imported.
  // Existing groups are filled once from their current rows.
  sql: `
    ALTER TABLE settlement_rollup ADD COLUMN refunds INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE settlement_rollup ADD COLUMN chargebacks INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE settlement_batches ADD COLUMN refunds INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE settlement_batches ADD COLUMN chargebacks INTEGER NOT NULL DEFAULT 0;

    CREATE TEMP TABLE debits_of_rows AS
      SELECT date, pg, payment_mode, order_status, pg_status, exception_flags, coalesce(utr, '') AS utr,
             settlement_date,
             CASE WHEN trim(ifnull(dispute_id, ''), ' ' || char(9, 10, 13)) = '' THEN amount ELSE 0 END AS refund,
             CASE WHEN trim(ifnull(dispute_id, ''), ' ' || char(9, 10, 13)) <> '' THEN amount ELSE 0 END AS chargeback
      FROM settlements WHERE vanished_at IS NULL AND amount < 0;
    UPDATE settlement_rollup SET refunds = d.refunds, chargebacks = d.chargebacks
      FROM (SELECT date, pg, payment_mode, order_status, pg_status, exception_flags, sum(refund) AS refunds,
                   sum(chargeback) AS chargebacks
            FROM debits_of_rows GROUP BY date, pg, payment_mode, order_status, pg_status, exception_flags) d
      WHERE settlement_rollup.date = d.date AND settlement_rollup.pg = d.pg
        AND settlement_rollup.payment_mode = d.payment_mode AND settlement_rollup.order_status = d.order_status
        AND settlement_rollup.pg_status = d.pg_status AND settlement_rollup.exception_flags = d.exception_flags;
    UPDATE settlement_batches SET refunds = d.refunds, chargebacks = d.chargebacks
      FROM (SELECT date, pg, utr, settlement_date, sum(refund) AS refunds, sum(chargeback) AS chargebacks
            FROM debits_of_rows GROUP BY date, pg, utr, settlement_date) d
      WHERE settlement_batches.date = d.date AND settlement_batches.pg = d.pg AND settlement_batches.utr = d.utr
        AND settlement_batches.settlement_date = d.settlement_date;
    DROP TABLE debits_of_rows;`,
};
