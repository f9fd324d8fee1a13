/**
 * Seeing the service's list move while we page it, and saying what a pass saw.
 *
 * Offset paging has a hole: a record dropped (or added) before the offset we are at shifts every later record
 * by one, so a page boundary skips one (or repeats one) and nothing says so. Pages therefore overlap by one
 * record: each page after the first starts at the previous page's last record, and that record must be the
 * same one (same gateway, transaction id and settlement time). If it is not, the list moved under us: the
 * pass is marked shifted and the date is paged again, until a pass sees no shift and agrees with the pass
 * before it (see settlement-sync.ts). The overlap costs one record a page (0.1% at the API's 1000).
 * What a pass saw is digested by cache/record-digest.ts.
 */
import type { SettlementRecord } from '../../shared/api/settlements';

export interface RecordKey {
  pg: string;
  txn: string;
  settledAt: string;
}

export function keyOf(r: SettlementRecord, scopePg: string | null): RecordKey {
  return { pg: r.pg ?? scopePg ?? '', txn: r.pg_transaction_id, settledAt: r.settlement_date };
}

/**
 * Whether a page that should start with `previousLast` does. A page that comes back empty where the overlap
 * record should be means records were dropped before it: a shift too.
 */
export function overlapHolds(previousLast: RecordKey, first: SettlementRecord | undefined, scopePg: string | null) {
  if (first === undefined) return false;
  const k = keyOf(first, scopePg);
  return k.pg === previousLast.pg && k.txn === previousLast.txn && k.settledAt === previousLast.settledAt;
}
