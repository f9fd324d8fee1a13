/** The matcher: each step on its own, and a property test with random noise (seeded, bounded). */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../electron/sandbox/random';
import {
  DEFAULT_RECON_SETTINGS,
  autoMatch,
  batchKeyText,
  lateDays,
  stateLabel,
  unmatchedBatchState,
  type MatchBatch,
  type MatchCredit,
} from '../../shared/bank-matching';
import { addDays } from '../../shared/time';

const settings = DEFAULT_RECON_SETTINGS;
const batch = (date: string, pg: string, utr: string, settled: number, t = '12:00:00'): MatchBatch => ({
  date,
  pg,
  utr,
  settlementDate: `${date} ${t}`,
  settled,
});
const credit = (
  id: number,
  date: string,
  amount: number,
  utr: string | null = null,
  pgHint: string | null = null,
): MatchCredit => ({
  id,
  date,
  amount,
  utr,
  pgHint,
});

describe('autoMatch', () => {
  it('pairs by UTR whatever the amount, then by exact amount in the window, then splits', () => {
    const batches = [
      batch('2026-01-10', 'payu', '111111111111', 5000),
      batch('2026-01-10', 'razorpay', '', 7000),
      batch('2026-01-11', 'cashfree', '222222222222', 9000),
      batch('2026-01-11', 'payu', '333333333333', 4100),
    ];
    const credits = [
      credit(1, '2026-01-10', 4900, '111111111111'),
      credit(2, '2026-01-12', 7000, '999999999999', 'razorpay'),
      credit(3, '2026-01-11', 5000),
      credit(4, '2026-01-12', 4000),
      credit(5, '2026-01-20', 4100, null, 'payu'),
    ];
    const m = autoMatch(batches, credits, settings);
    expect(m.map((x) => [x.batch.pg, x.how, x.lineIds])).toEqual([
      ['payu', 'utr', [1]],
      ['razorpay', 'amount', [2]],
      ['cashfree', 'split', [3, 4]],
    ]);
  });

  it('never pairs across the window, against the gateway a narration names, or what the desk took apart', () => {
    const b = batch('2026-01-10', 'payu', '', 5000);
    expect(autoMatch([b], [credit(1, '2026-01-09', 5000)], settings)).toEqual([]);
    expect(autoMatch([b], [credit(1, addDays('2026-01-10', 3), 5000)], settings)).toEqual([]);
    expect(autoMatch([b], [credit(1, '2026-01-10', 5000, null, 'cashfree')], settings)).toEqual([]);
    expect(autoMatch([b], [credit(1, '2026-01-10', 5000)], settings, new Set([`${batchKeyText(b)}#1`]))).toEqual([]);
  });

  it('names a batch without a credit overdue only after T+n, and one that nets to a debit never', () => {
    const batch = { date: '2026-01-10', settled: 100 };
    expect(unmatchedBatchState(batch, '2026-01-11', settings)).toBe('awaiting');
    expect(unmatchedBatchState(batch, '2026-01-12', settings)).toBe('overdue');
    // Refunds and chargebacks that take the whole batch back: nothing is due from the bank, early or late.
    for (const settled of [0, -2_957_874]) {
      expect(unmatchedBatchState({ ...batch, settled }, '2026-01-11', settings)).toBe('net_debit');
      expect(unmatchedBatchState({ ...batch, settled }, '2026-03-01', settings)).toBe('net_debit');
    }
  });

  it('with random noise, never matches one credit to two batches or one batch twice, and every automatic sum holds', () => {
    for (let round = 0; round < 60; round++) {
      const rng = new Rng(0xbeef + round);
      const batches: MatchBatch[] = [];
      const credits: MatchCredit[] = [];
      let id = 0;
      const pgs = ['razorpay', 'cashfree', 'payu'];
      for (let d = 0; d < 6; d++) {
        const date = addDays('2026-03-01', d);
        for (let k = 0; k < 8; k++) {
          // Small amounts on purpose, so equal amounts and accidental sums are common.
          const settled = rng.int(1, 40) * 100;
          const utr = rng.chance(0.2) ? '' : rng.chance(0.1) ? '123456789012' : rng.digits(12);
          const b = batch(date, rng.pick(pgs), utr, settled, `1${k}:00:00`);
          batches.push(b);
          const later = addDays(date, rng.int(0, 3));
          const roll = rng.next();
          if (roll < 0.5)
            credits.push(credit(++id, later, settled + (rng.chance(0.2) ? rng.int(-3, 3) * 100 : 0), utr || null));
          else if (roll < 0.7) {
            const part = rng.int(1, Math.max(1, settled / 100 - 1)) * 100;
            credits.push(credit(++id, later, part), credit(++id, later, settled - part));
          } else if (roll < 0.8) credits.push(credit(++id, later, settled, rng.chance(0.5) ? utr || null : null));
        }
        for (let k = 0; k < 4; k++)
          credits.push(credit(++id, date, rng.int(1, 80) * 100, rng.chance(0.3) ? rng.digits(12) : null));
      }
      const matches = autoMatch(batches, credits, settings);
      const lineIds = matches.flatMap((m) => m.lineIds);
      expect(new Set(lineIds).size).toBe(lineIds.length);
      const keys = matches.map((m) => batchKeyText(m.batch));
      expect(new Set(keys).size).toBe(keys.length);
      const byId = new Map(credits.map((c) => [c.id, c]));
      const byKey = new Map(batches.map((b) => [batchKeyText(b), b]));
      for (const m of matches) {
        const b = byKey.get(batchKeyText(m.batch))!;
        const sum = m.lineIds.reduce((s, l) => s + byId.get(l)!.amount, 0);
        if (m.how !== 'utr') expect(sum).toBe(b.settled);
        else for (const l of m.lineIds) expect(byId.get(l)!.utr).toBe(b.utr);
        for (const l of m.lineIds) {
          const c = byId.get(l)!;
          if (m.how !== 'utr') expect(c.date >= b.date && c.date <= addDays(b.date, settings.windowDays)).toBe(true);
        }
      }
    }
  });
});

describe('late credits', () => {
  const settings = { ...DEFAULT_RECON_SETTINGS, overdueDays: 1 };
  it('counts the days the last credit came after T+n; in time, or no credit, is null', () => {
    expect(lateDays('2026-11-24', ['2026-11-25'], settings)).toBeNull();
    expect(lateDays('2026-11-24', ['2026-11-24', '2026-11-27'], settings)).toBe(2);
    expect(lateDays('2026-02-27', ['2026-03-02'], settings)).toBe(2);
    expect(lateDays('2026-11-24', [], settings)).toBeNull();
  });
  it('says a late match as "Matched, N days late"', () => {
    expect(stateLabel('Matched', 3)).toBe('Matched, 3 days late');
    expect(stateLabel('Matched', 1)).toBe('Matched, 1 day late');
    expect(stateLabel('Matched', null)).toBe('Matched');
  });
});
