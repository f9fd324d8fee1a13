/** Expected turnaround per method and ageing, on a fixed clock: IMPS/UPI/RTGS minutes, NEFT batch windows across days. */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TURNAROUND,
  expectedBy,
  formatAge,
  nextNeftBatch,
  payoutAge,
  turnaroundSettings,
} from '../../shared/payout-ageing';
import { TEST_NOW } from '../support/clock';

/** An IST wall-clock time on the test's day (or `days` after it) as ISO UTC. */
const istDay = new Date(TEST_NOW + 330 * 60_000).toISOString().slice(0, 10);
function ist(hhmm: string, days = 0): string {
  const day = Date.parse(`${istDay}T00:00:00Z`) + days * 86_400_000;
  return new Date(day + (Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3))) * 60_000 - 330 * 60_000).toISOString();
}

describe('expectedBy', () => {
  it('IMPS, UPI and RTGS: the configured minutes after first seen; any case of method', () => {
    const s = { ...DEFAULT_TURNAROUND, impsMinutes: 15, upiMinutes: 5, rtgsMinutes: 45 };
    expect(expectedBy('IMPS', ist('10:00'), s)).toBe(ist('10:15'));
    expect(expectedBy('upi', ist('23:58'), s)).toBe(ist('00:03', 1));
    expect(expectedBy('rtgs', ist('10:00'), s)).toBe(ist('10:45'));
    expect(expectedBy('cheque', ist('10:00'), s)).toBeNull();
    expect(expectedBy(undefined, ist('10:00'), s)).toBeNull();
  });

  it('NEFT, half-hourly batches: the next batch, then the credit time', () => {
    expect(expectedBy('neft', ist('10:05'), DEFAULT_TURNAROUND)).toBe(ist('12:30'));
    expect(expectedBy('neft', ist('10:30'), DEFAULT_TURNAROUND)).toBe(ist('12:30'));
    // After the 23:30 batch, the next is midnight: the credit is due on the next day.
    expect(expectedBy('neft', ist('23:45'), DEFAULT_TURNAROUND)).toBe(ist('02:00', 1));
  });

  it("NEFT windows that stop overnight: a payout seen after the last batch waits for the next day's first", () => {
    const s = { ...DEFAULT_TURNAROUND, neftBatches: ['09:00', '12:00', '16:00', '19:00'], neftCreditMinutes: 60 };
    expect(expectedBy('neft', ist('08:00'), s)).toBe(ist('10:00'));
    expect(expectedBy('neft', ist('16:00'), s)).toBe(ist('17:00'));
    expect(expectedBy('neft', ist('19:01'), s)).toBe(ist('10:00', 1));
    expect(new Date(nextNeftBatch(Date.parse(ist('23:59')), s.neftBatches)).toISOString()).toBe(ist('09:00', 1));
  });
});

describe('payoutAge', () => {
  const seen = ist('10:00');
  const imps = (status: string) => ({ firstSeenAt: seen, transferStatus: status, payout: { method: 'imps' } });

  it('is overdue only while pending and past its time', () => {
    const now = Date.parse(ist('10:31'));
    expect(payoutAge(imps('pending'), now, DEFAULT_TURNAROUND)).toEqual({
      firstSeenAt: seen,
      ageMs: 31 * 60_000,
      expectedBy: ist('10:30'),
      overdue: true,
    });
    expect(payoutAge(imps('pending'), Date.parse(ist('10:30')), DEFAULT_TURNAROUND).overdue).toBe(false);
    expect(payoutAge(imps('success'), now, DEFAULT_TURNAROUND).overdue).toBe(false);
  });

  it('knows nothing of a payout never seen', () => {
    expect(payoutAge({ firstSeenAt: null, transferStatus: null, payout: null }, TEST_NOW, DEFAULT_TURNAROUND)).toEqual({
      firstSeenAt: null,
      ageMs: null,
      expectedBy: null,
      overdue: false,
    });
  });
});

describe('settings and words', () => {
  it('refuses batch times out of order or malformed, and minutes below one', () => {
    const bad = (patch: object) => turnaroundSettings.safeParse({ ...DEFAULT_TURNAROUND, ...patch }).success;
    expect(bad({})).toBe(true);
    expect(bad({ neftBatches: ['12:00', '09:00'] })).toBe(false);
    expect(bad({ neftBatches: ['9:00'] })).toBe(false);
    expect(bad({ neftBatches: [] })).toBe(false);
    expect(bad({ impsMinutes: 0 })).toBe(false);
    expect(bad({ upiMinutes: 1.5 })).toBe(false);
  });

  it('says an age in minutes, hours or days', () => {
    expect(formatAge(45 * 60_000)).toBe('45 min');
    expect(formatAge(185 * 60_000)).toBe('3 h 05 min');
    expect(formatAge((52 * 60 + 10) * 60_000)).toBe('2 d 4 h');
  });
});
