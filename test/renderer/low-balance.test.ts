/** The desk's low-balance line: typed rupees parsed exactly, kept per profile, and when an account is low. */
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { lowBalanceReason, parseThreshold, useLowBalanceThreshold } from '../../renderer/src/accounts/low-balance';
import { formatRupeesTyped } from '../../shared/rupees';
import type { OverviewAccount } from '../../renderer/src/accounts/accounts-queries';

describe('parseThreshold', () => {
  it.each([
    ['', null],
    ['  ', null],
    ['50000', 5_000_000],
    ['1,00,000.50', 10_000_050],
    ['100,000.5', 10_000_050],
    ['0.01', 1],
    ['12345678.99', 1_234_567_899],
  ])('reads %j as %j paise', (text, minor) => {
    expect(parseThreshold(text)).toEqual({ ok: true, minor });
  });

  it.each([
    ['-5', 'The threshold cannot be negative.'],
    ['1.234', 'Use at most two decimal places (paise).'],
    ['1,0,0', 'Enter an amount in rupees, such as 50000 or 1,00,000.50.'],
    ['ten', 'Enter an amount in rupees, such as 50000 or 1,00,000.50.'],
    ['1e5', 'Enter an amount in rupees, such as 50000 or 1,00,000.50.'],
  ])('refuses %j with a sentence', (text, message) => {
    expect(parseThreshold(text)).toEqual({ ok: false, message });
  });
});

describe('formatRupeesTyped', () => {
  it.each([
    ['2,50,00,000', '2,50,00,000'],
    ['25000000', '2,50,00,000'],
    ['1,00,000.5', '1,00,000.50'],
    ['0.01', '0.01'],
    ['999', '999'],
  ])('shows %j back as %j, which parses to the same paise', (typed, shown) => {
    const parsed = parseThreshold(typed);
    if (!parsed.ok || parsed.minor === null) throw new Error(`${typed} did not parse`);
    expect(formatRupeesTyped(parsed.minor)).toBe(shown);
    expect(parseThreshold(shown)).toEqual(parsed);
  });
});

const account = (available: number, minimum: number | null): OverviewAccount =>
  ({ latest: { availableBalance: available, minimumBalance: minimum } }) as unknown as OverviewAccount;

describe('lowBalanceReason', () => {
  it('names the gateway minimum before the desk threshold', () => {
    expect(lowBalanceReason(account(999, 1000), 'INR', 5000)).toEqual({ kind: 'minimum', limit: 1000 });
    expect(lowBalanceReason(account(1000, 1000), 'INR', 5000)).toEqual({ kind: 'threshold', limit: 5000 });
    expect(lowBalanceReason(account(5000, 1000), 'INR', 5000)).toBeNull();
  });

  it('applies a threshold in rupees only to INR accounts, and says nothing without a balance', () => {
    expect(lowBalanceReason(account(10, null), 'USD', 5000)).toBeNull();
    expect(lowBalanceReason({ latest: null } as unknown as OverviewAccount, 'INR', 5000)).toBeNull();
  });
});

describe('useLowBalanceThreshold', () => {
  it('keeps a threshold per profile, exact, across hooks', () => {
    const sandbox = renderHook(() => useLowBalanceThreshold('sandbox'));
    const production = renderHook(() => useLowBalanceThreshold('production'));
    expect(sandbox.result.current[0]).toBeNull();
    act(() => sandbox.result.current[1](10_000_050));
    expect(sandbox.result.current[0]).toBe(10_000_050);
    expect(production.result.current[0]).toBeNull();
    // A second view of the same profile sees the change without a reload.
    const again = renderHook(() => useLowBalanceThreshold('sandbox'));
    expect(again.result.current[0]).toBe(10_000_050);
    act(() => sandbox.result.current[1](null));
    expect(again.result.current[0]).toBeNull();
  });

  it('ignores a stored value that is not whole paise', () => {
    localStorage.setItem('payout-console:low-balance-threshold:sandbox', '12.5');
    const { result } = renderHook(() => useLowBalanceThreshold('sandbox'));
    expect(result.current[0]).toBeNull();
  });
});
