/** The sandbox's settlement data obeys the documented formula, apart from its deliberate exceptions. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettlementRecord } from '../../shared/api/settlements';
import { checkRecord, duplicateSettlement } from '../../shared/reconciliation';
import { openSandbox, type OpenSandbox } from '../support/sandbox';

let sb: OpenSandbox;
const records: SettlementRecord[] = [];

beforeAll(async () => {
  sb = await openSandbox({ settlementsPerDay: 2000 });
  const api = sb.api();
  for (const date of sb.sandbox.fixtures().settlementDates.slice(-5)) {
    for await (const page of api.settlements.pages({ date })) records.push(...page.data);
  }
});
afterAll(() => sb.close());

describe('sandbox settlements against the reconciliation rules', () => {
  it('break a small share of records, each in the way the sandbox means', () => {
    const broken = records.map((r) => ({ r, exceptions: checkRecord(r) })).filter((x) => x.exceptions.length > 0);
    // A pending UTR is a whole batch's (hundreds of records, about 6% of batches), so its share of records swings
    // with the days sampled: the small share is of the record-level breaks.
    const share = broken.filter((x) => x.exceptions.some((e) => e.rule !== 'missing_utr')).length / records.length;
    expect(records.length).toBe(10_000);
    expect(share).toBeGreaterThan(0.01);
    expect(share).toBeLessThan(0.05);
    const rules = new Set(broken.flatMap((x) => x.exceptions.map((e) => e.rule)));
    expect([...rules].sort()).toEqual(['dispute_open', 'failed_but_settled', 'missing_utr', 'settled_amount_mismatch']);
    for (const { exceptions } of broken) {
      for (const e of exceptions.filter((x) => x.rule === 'settled_amount_mismatch')) {
        expect(Math.abs(e.values.difference as number)).toBeLessThanOrEqual(9);
      }
    }
  });

  it('settle some transactions twice', () => {
    const times = new Map<string, string[]>();
    for (const r of records) {
      if (r.settled_amount === 0) continue;
      const key = `${r.pg}|${r.pg_transaction_id}`;
      times.set(key, [...(times.get(key) ?? []), r.settlement_date]);
    }
    const twice = [...times.values()].map(duplicateSettlement).filter((e) => e !== null);
    expect(twice.length).toBeGreaterThan(0);
    expect(twice.length / records.length).toBeLessThan(0.01);
  });
});
