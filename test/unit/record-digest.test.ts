/**
 * The pass digest of the paging check (record-digest.ts), which the sync computes for every record it reads. It is
 * hand-rolled for speed (each record's line hashed piece by piece, never built), so it is held here to what it
 * replaces: the digest of each record's joined line, and the digest of the row stored from the record.
 */
import { describe, expect, it } from 'vitest';
import { createPassDigest, EMPTY_DIGEST } from '../../electron/cache/record-digest';
import { fieldValues } from '../../electron/cache/settlement-rows';
import { settlementRecord, type SettlementRecord } from '../../shared/api/settlements';
import { wireRecord } from '../support/wire-record';

const wire = wireRecord;

/** Records as the schema gives them: every kind of value the columns can hold. */
const records: SettlementRecord[] = [
  wire,
  { ...wire, pg_transaction_id: 'pay_2', utr: '', pg: undefined },
  {
    ...wire,
    pg_transaction_id: 'pay_3',
    order_id: null,
    description: 'Refund — ₹ 1,200 for "Ørder" 🧾',
    amount: -4500,
  },
  { ...wire, pg_transaction_id: 'pay_4', dispute_id: 'dsp_9', settled_amount: 0, batch_ref: 'B-7', nested: { a: [1] } },
  { ...wire, pg_transaction_id: 'pay_5', 'field with spaces': '' },
  { ...wire, pg_transaction_id: 'pay_6', amount: 900719925474099, description: '' },
].map((r) => {
  const parsed = settlementRecord.parse(r);
  if (r.pg === undefined) delete parsed.pg;
  return parsed;
});

/** The digests of `records` by the implementation that joined each record's line into one text and hashed it. */
const GOLDEN_ALL = ':1-0935e6b50be0ad301f331025 razorpay:5-47573b1de96542698776a037';
const GOLDEN_SCOPED = 'payu:1-b99a1db4770ab145a5449d74 razorpay:5-47573b1de96542698776a037';

describe('the pass digest', () => {
  it('is what the line of each record digested before (manifests stored then compare with later passes)', () => {
    const all = createPassDigest(null);
    all.add(records);
    expect(all.digest()).toBe(GOLDEN_ALL);
    const scoped = createPassDigest('payu');
    scoped.add(records);
    expect(scoped.digest()).toBe(GOLDEN_SCOPED);
    expect(createPassDigest(null).digest()).toBe('');
    expect(EMPTY_DIGEST).toBe('0-000000000000000000000000');
  });

  it('digests a record and the row stored from it alike', () => {
    const fromRecords = createPassDigest(null);
    fromRecords.add(records);
    const fromRows = createPassDigest(null);
    for (const r of records) {
      fromRows.addRow(r.pg ?? '', r.pg_transaction_id, r.settlement_date, r.settled_amount, fieldValues(r));
    }
    expect(fromRows.gateways()).toEqual(fromRecords.gateways());
  });
});
