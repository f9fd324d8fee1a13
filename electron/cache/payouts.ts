/**
 * Payout lookups: every status check is recorded (normal or "advance" hard pull, the answer or the error),
 * so a payout's history shows when its status changed and what each check said, offline.
 */
import type { Database } from 'better-sqlite3';
import type { Payout } from '../../shared/api/payouts';
import type { PendingPayout } from '../../shared/headroom';
import { PENDING_TRANSFER_STATUSES, type PayoutLookup, type PayoutLookupMode } from '../../shared/payouts';
import { prepareAll } from './statements';

export type { PayoutLookup };

const COLUMNS = `id, payout_id AS payoutId, mode, looked_up_at AS lookedUpAt, transfer_status AS transferStatus,
  ut_no AS utNo, amount, processed_at AS processedAt, gateway_error_code AS gatewayErrorCode,
  gateway_error_message AS gatewayErrorMessage, error, payout,
  (SELECT first_seen_at FROM payout_first_seen f WHERE f.payout_id = payout_lookups.payout_id) AS firstSeenAt`;

const SQL = {
  insert: `INSERT INTO payout_lookups (payout_id, mode, looked_up_at, transfer_status, ut_no, amount, processed_at,
             gateway_error_code, gateway_error_message, error, payout)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  byId: `SELECT ${COLUMNS} FROM payout_lookups WHERE id = ?`,
  // The first answer that carried the payout is when the console first saw it; later ones leave it.
  firstSeen: `INSERT OR IGNORE INTO payout_first_seen (payout_id, first_seen_at) VALUES (?, ?)`,
  history: `SELECT ${COLUMNS} FROM payout_lookups WHERE payout_id = ? ORDER BY id`,
  latest: `SELECT ${COLUMNS} FROM payout_lookups WHERE payout_id = ? ORDER BY id DESC LIMIT 1`,
  every: `SELECT ${COLUMNS} FROM payout_lookups ORDER BY payout_id, id`,
  recent: `SELECT ${COLUMNS} FROM payout_lookups
           WHERE id IN (SELECT max(id) FROM payout_lookups GROUP BY payout_id) ORDER BY id DESC LIMIT ?`,
  pending: `SELECT json_extract(payout, '$.fund_source') AS pg, amount FROM payout_lookups
            WHERE id IN (SELECT max(id) FROM payout_lookups WHERE transfer_status IS NOT NULL GROUP BY payout_id)
              AND transfer_status IN (SELECT value FROM json_each(?)) AND amount IS NOT NULL`,
} as const;

type Row = Omit<PayoutLookup, 'payout'> & { payout: string | null };

function fromRow(row: Row): PayoutLookup {
  return { ...row, payout: row.payout === null ? null : (JSON.parse(row.payout) as PayoutLookup['payout']) };
}

export function createPayoutsRepository(db: Database, now: () => Date) {
  const sql = prepareAll(db, SQL);
  return {
    /**
     * Payouts whose newest known status is pending, with the gateway they draw on (their fund source) and amount:
     * what the console knows will still leave the accounts.
     */
    pending: (): PendingPayout[] =>
      sql.pending.all(JSON.stringify(PENDING_TRANSFER_STATUSES)) as { pg: string | null; amount: number }[],
    recordLookup(lookup: {
      payoutId: string;
      mode: PayoutLookupMode;
      payout?: Payout;
      /** The gateway's own error for the payout, sent beside it. */
      gatewayError?: { code: string | null; message: string | null };
      error?: string;
    }): PayoutLookup {
      const p = lookup.payout;
      const at = now().toISOString();
      if (p !== undefined) sql.firstSeen.run(lookup.payoutId, at);
      const id = sql.insert.run(
        lookup.payoutId,
        lookup.mode,
        at,
        p?.transfer_status ?? null,
        p?.ut_no ?? null,
        p?.amount ?? null,
        p?.processed_at ?? null,
        lookup.gatewayError?.code ?? null,
        lookup.gatewayError?.message ?? null,
        lookup.error ?? null,
        p === undefined ? null : JSON.stringify(p),
      ).lastInsertRowid;
      return fromRow(sql.byId.get(id) as Row);
    },
    byId(id: number): PayoutLookup | null {
      const row = sql.byId.get(id) as Row | undefined;
      return row ? fromRow(row) : null;
    },
    /** Every lookup of the payout, oldest first. */
    history: (payoutId: string) => (sql.history.all(payoutId) as Row[]).map(fromRow),
    latest(payoutId: string): PayoutLookup | null {
      const row = sql.latest.get(payoutId) as Row | undefined;
      return row ? fromRow(row) : null;
    },
    /** Every lookup, by payout and then in the order they were made, read as they are used: exports. */
    *every(): Generator<PayoutLookup> {
      for (const row of sql.every.iterate() as Iterable<Row>) yield fromRow(row);
    },
    /** The latest lookup of each payout, most recently checked first. */
    recent: (limit = 50) => (sql.recent.all(limit) as Row[]).map(fromRow),
  };
}
export type PayoutsRepository = ReturnType<typeof createPayoutsRepository>;
