/** The pure parts of what-changed and completeness: the field diff, the overlap check and the pass digest. */
import { describe, expect, it } from 'vitest';
import { createPassDigest, EMPTY_DIGEST } from '../../electron/cache/record-digest';
import { diffFields, meaningOf } from '../../electron/cache/settlement-changes';
import { FIELD_COLUMNS, fieldValues, type StoredRow } from '../../electron/cache/settlement-rows';
import { changeRows } from '../../electron/export/settlement-sheets';
import { keyOf, overlapHolds } from '../../electron/sync/paging-check';
import type { SettlementChange } from '../../shared/settlement-changes';
import { craftedRecord } from '../support/crafted-records';

const DAY = '2028-02-20';

/** A stored row as the ingest writes it from a record. */
function rowOf(n: number, fields: Parameters<typeof craftedRecord>[2] = {}) {
  const values = fieldValues(craftedRecord(n, DAY, fields));
  return Object.fromEntries(FIELD_COLUMNS.map((c, i) => [c, values[i]])) as Pick<
    StoredRow,
    (typeof FIELD_COLUMNS)[number]
  >;
}

describe('diffFields', () => {
  it('is empty for the same record', () => {
    expect(diffFields(rowOf(1), fieldValues(craftedRecord(1, DAY)))).toEqual([]);
  });

  it('names each changed field with old and new, in column order, and what it means', () => {
    const before = rowOf(1, { utr: null });
    const after = craftedRecord(1, DAY, {
      utr: 'UTR000000009',
      pg_status: 'failed',
      settled_amount: 997_000,
      dispute_id: 'dsp_1',
    });
    expect(diffFields(before, fieldValues(after))).toEqual([
      { field: 'utr', old: null, new: 'UTR000000009', meaning: 'utr_filled' },
      { field: 'pg_status', old: 'success', new: 'failed', meaning: 'status' },
      { field: 'settled_amount', old: 997_063, new: 997_000, meaning: 'amount' },
      { field: 'dispute_id', old: null, new: 'dsp_1', meaning: 'dispute_opened' },
    ]);
  });

  it('tells a UTR replaced from one filled in or removed, and a dispute closed from one opened', () => {
    expect(meaningOf('utr', 'A', 'B')).toBe('utr_replaced');
    expect(meaningOf('utr', '', 'B')).toBe('utr_filled');
    expect(meaningOf('utr', 'A', null)).toBe('utr_removed');
    expect(meaningOf('dispute_id', 'dsp_1', null)).toBe('dispute_closed');
    expect(meaningOf('cgst', 1, 2)).toBe('amount');
    expect(meaningOf('description', null, 'x')).toBe('other');
  });
});

describe('overlapHolds', () => {
  const last = keyOf(craftedRecord(5, DAY), null);

  it('holds when the page starts with the previous page’s last record, even if its fields changed', () => {
    expect(overlapHolds(last, craftedRecord(5, DAY, { utr: 'NEW' }), null)).toBe(true);
  });

  it('fails when a record before the boundary was dropped (the page starts one later) or added (one earlier)', () => {
    expect(overlapHolds(last, craftedRecord(6, DAY), null)).toBe(false);
    expect(overlapHolds(last, craftedRecord(4, DAY), null)).toBe(false);
  });

  it('fails on an empty page where the overlapping record should be', () => {
    expect(overlapHolds(last, undefined, null)).toBe(false);
  });

  it('compares the settlement time and the gateway too (the natural key)', () => {
    expect(overlapHolds(last, craftedRecord(5, DAY, { settlement_date: `${DAY} 23:00:00` }), null)).toBe(false);
    expect(overlapHolds(last, craftedRecord(5, DAY, { pg: 'other' }), null)).toBe(false);
    // A record without `pg` takes the gateway the sync asked for.
    expect(overlapHolds(last, { ...craftedRecord(5, DAY), pg: undefined }, 'crafted')).toBe(true);
  });
});

describe('createPassDigest', () => {
  const records = Array.from({ length: 50 }, (_, i) => craftedRecord(i, DAY, { settled_amount: 1000 + i }));

  it('is the same whatever the order, and counts and sums each gateway', () => {
    const a = createPassDigest(null);
    a.add(records);
    const b = createPassDigest(null);
    b.add([...records].reverse().slice(0, 20));
    b.add([...records].reverse().slice(20));
    expect(b.digest()).toBe(a.digest());
    expect(a.gateways().get('crafted')).toMatchObject({ records: 50, settled: 50 * 1000 + (49 * 50) / 2 });
  });

  it('differs when a record is missing, repeated or has any field changed', () => {
    const whole = createPassDigest(null);
    whole.add(records);
    const missing = createPassDigest(null);
    missing.add(records.slice(1));
    const repeated = createPassDigest(null);
    repeated.add([...records, records[0]!]);
    const changed = createPassDigest(null);
    changed.add([...records.slice(1), { ...records[0]!, description: 'x' }]);
    const digests = new Set([whole, missing, repeated, changed].map((d) => d.digest()));
    expect(digests.size).toBe(4);
  });

  it('digests a stored row like the record it was written from', () => {
    const fromRecords = createPassDigest(null);
    fromRecords.add(records);
    const fromRows = createPassDigest(null);
    for (const r of records)
      fromRows.addRow(r.pg!, r.pg_transaction_id, r.settlement_date, r.settled_amount, fieldValues(r));
    expect(fromRows.digest()).toBe(fromRecords.digest());
    expect(createPassDigest(null).gateways().size).toBe(0);
    expect(EMPTY_DIGEST).toMatch(/^0-/);
  });
});

describe('the Changes export', () => {
  it('names each changed field and what it means in the words of the Changes view, not by its column', () => {
    const change: SettlementChange = {
      id: 1,
      runId: 2,
      recordId: 3,
      date: DAY,
      pg: 'cashfree',
      pgTransactionId: 'TXN1',
      settlementDate: `${DAY} 12:12:26`,
      kind: 'changed',
      at: `${DAY}T06:42:26.000Z`,
      fields: [
        { field: 'utr', old: 'UTR1', new: 'UTR2', meaning: 'utr_replaced' },
        { field: 'dispute_id', old: null, new: 'dsp_1', meaning: 'dispute_opened' },
        { field: 'settled_amount', old: 260621, new: 260000, meaning: 'amount' },
      ],
    };
    expect(changeRows(change).map((r) => r.slice(7))).toEqual([
      ['UTR', 'UTR replaced', 'UTR1', 'UTR2'],
      ['Dispute ID', 'dispute opened', null, 'dsp_1'],
      ['Settled amount', 'amount', '2606.21', '2600.00'],
    ]);
  });
});
