/** The payable-now arithmetic in paise: per account, gateway and total; pending payouts; the low-headroom rule. */
import { describe, expect, it } from 'vitest';
import type { AccountsOverview } from '../../shared/accounts';
import { computeHeadroom, headroomOf } from '../../shared/headroom';

const T1 = '2026-06-15T06:30:00.000Z';
const T2 = '2026-06-15T07:30:00.000Z';

function account(
  pg: string,
  accountNumber: string,
  f: { available: number; minimum?: number | null; hold?: number | null; overdraft?: number | null },
  currency: string | null = 'INR',
  takenAt = T1,
): AccountsOverview['accounts'][number] {
  return {
    pg,
    accountNumber,
    ifscCode: null,
    accountType: null,
    currency,
    transactionLimit: null,
    extra: null,
    firstSeenAt: takenAt,
    lastSeenAt: takenAt,
    latest: {
      id: 1,
      pg,
      accountNumber,
      takenAt,
      source: 'accounts',
      availableBalance: f.available,
      accountBalance: null,
      minimumBalance: f.minimum ?? null,
      holdFund: f.hold ?? null,
      overdraft: f.overdraft ?? null,
    },
    checked: null,
  };
}

describe('headroomOf', () => {
  it('is available − minimum, and + overdraft; a missing figure counts as 0', () => {
    expect(headroomOf({ available: 1_000_00, minimum: 200_00, overdraft: 300_00 })).toEqual({
      payable: 800_00,
      payableWithOverdraft: 1100_00,
    });
    expect(headroomOf({ available: 10, minimum: null, overdraft: null })).toEqual({
      payable: 10,
      payableWithOverdraft: 10,
    });
  });
  it('is negative when the minimum exceeds what is available, never clamped', () => {
    expect(headroomOf({ available: 100, minimum: 500, overdraft: 1000 })).toEqual({
      payable: -400,
      payableWithOverdraft: 600,
    });
  });
});

describe('an account with a hold', () => {
  // The service's available balance already leaves the hold out (balance ₹2,23,62,754.71 − hold ₹14,298.00):
  // subtracting the hold again would understate payable now by exactly the hold.
  const held = account('cashfree', '555', { available: 2_23_48_456_71, minimum: 0, hold: 14_298_00 });
  const r = computeHeadroom({ accounts: [held], gatewayErrors: [] }, [], {});
  it('is payable up to its available balance less the minimum; the hold is shown, not subtracted again', () => {
    expect(r.accounts[0]).toMatchObject({ available: 2_23_48_456_71, hold: 14_298_00, payable: 2_23_48_456_71 });
    expect(r.gateways[0]).toMatchObject({ pg: 'cashfree', payable: 2_23_48_456_71 });
    expect(r.total.payable).toBe(2_23_48_456_71);
  });
});

describe('computeHeadroom', () => {
  const overview = {
    accounts: [
      account('alpha', '111', { available: 5_000_00, minimum: 1_000_00, hold: 500_00, overdraft: 2_000_00 }),
      account('alpha', '222', { available: 1_000_00, minimum: 0, hold: 0 }, null, T2),
      account('beta', '333', { available: 9_000_00, minimum: 1_000_00 }),
      account('gamma', '444', { available: 700 }, 'USD'),
    ],
    gatewayErrors: [{ pg: 'beta', code: '504', message: 'timed out', at: T2 }],
  };
  const pending = [
    { pg: 'alpha', amount: 1_200_00 },
    { pg: 'alpha', amount: 1 },
    { pg: 'beta', amount: 300_00 },
    { pg: null, amount: 50_00 },
    { pg: 'omega', amount: 25_00 },
  ];
  const r = computeHeadroom(overview, pending, { alpha: 3_799_99, beta: 7_700_00 });

  it('sums accounts into gateways and gateways into the total, INR only', () => {
    expect(r.gateways.map((g) => [g.pg, g.payable, g.payableWithOverdraft])).toEqual([
      ['alpha', 5_000_00, 7_000_00],
      ['beta', 8_000_00, 8_000_00],
    ]);
    expect(r.total).toEqual({
      payable: 13_000_00,
      payableWithOverdraft: 15_000_00,
      pending: 1_575_01,
      pendingCount: 5,
      afterPending: 13_000_00 - 1_575_01,
      afterPendingWithOverdraft: 15_000_00 - 1_575_01,
    });
    expect(r.otherCurrencies).toEqual(['USD']);
    expect(r.unattributedPending).toBe(75_00);
  });
  it('marks a gateway whose last answer was an error as stale, with its oldest figure time', () => {
    expect(r.gateways.find((g) => g.pg === 'beta')).toMatchObject({
      stale: { code: '504', message: 'timed out', at: T2 },
      asOf: T1,
    });
    expect(r.gateways.find((g) => g.pg === 'alpha')).toMatchObject({ stale: null, asOf: T1 });
  });
  it('dates the total by its oldest figure, so a total read from the cache says how old it is', () => {
    expect(r.asOf).toBe(T1);
    const newer = computeHeadroom({ accounts: [overview.accounts[1]!], gatewayErrors: [] }, [], {});
    expect(newer.asOf).toBe(T2);
    expect(computeHeadroom({ accounts: [], gatewayErrors: [] }, [], {}).asOf).toBeNull();
  });
  it('is low when payable now less pending is below the threshold, not at it', () => {
    expect(r.gateways.find((g) => g.pg === 'alpha')).toMatchObject({ afterPending: 3_799_99, low: false });
    expect(r.gateways.find((g) => g.pg === 'beta')).toMatchObject({ afterPending: 7_700_00, low: false });
    const higher = computeHeadroom(overview, pending, { alpha: 3_800_00 });
    expect(higher.gateways.find((g) => g.pg === 'alpha')!.low).toBe(true);
  });
});

describe('a gateway that gave no figure', () => {
  const overview = {
    accounts: [account('alpha', '111', { available: 5_000_00, minimum: 1_000_00 })],
    gatewayErrors: [{ pg: 'easebuzz', code: '503', message: 'Gateway unavailable', at: T2 }],
  };
  const r = computeHeadroom(overview, [{ pg: 'easebuzz', amount: 700_00 }], { easebuzz: 1_00 });
  it('has no payable figures, not zeros, keeps its pending payouts and its reason, and is never low', () => {
    expect(r.gateways.find((g) => g.pg === 'easebuzz')).toEqual({
      pg: 'easebuzz',
      payable: null,
      payableWithOverdraft: null,
      pending: 700_00,
      pendingCount: 1,
      afterPending: null,
      afterPendingWithOverdraft: null,
      stale: { code: '503', message: 'Gateway unavailable', at: T2 },
      asOf: null,
      threshold: 1_00,
      low: false,
    });
  });
  it('is left out of the total, which names it', () => {
    expect(r.unreported).toEqual(['easebuzz']);
    expect(r.total).toMatchObject({ payable: 4_000_00, pending: 700_00, afterPending: 3_300_00 });
  });
});
