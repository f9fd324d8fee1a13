/**
 * Settlement records of a gateway of the tests' own ("crafted"), for exports fed with exactly the ids, texts and
 * amounts a test needs beside the sandbox's days.
 */
import type { SettlementRecord } from '../../shared/api/settlements';
import { addDays } from '../../shared/time';

/** An ordinary record of the crafted gateway; amounts obey the settlement formula with CGST, SGST, IGST apart. */
export function craftedRecord(n: number, day: string, fields: Partial<SettlementRecord> = {}): SettlementRecord {
  const ss = String(n % 60).padStart(2, '0');
  return {
    pg: 'crafted',
    order_id: `ord_crafted_${n}`,
    pg_transaction_id: `txn_crafted_${n}`,
    order_date: `${addDays(day, -1)} 09:15:${ss}`,
    settlement_date: `${day} 18:30:${ss}`,
    utr: `UTR${String(n).padStart(9, '0')}`,
    order_status: 'success',
    pg_status: 'success',
    payment_mode: 'UPI',
    amount: 1_000_001,
    mer_service_fee: 2_345,
    mer_service_tax: 600,
    cgst: 101,
    sgst: 202,
    igst: 297,
    merchant_subvention_amount: 7,
    settled_amount: 997_063,
    dispute_id: null,
    description: null,
    ...fields,
  };
}
