/**
 * The desk's own low-balance alert: an amount in rupees, kept per profile in localStorage (a sandbox threshold
 * must not alarm on production balances, nor the other way round) as exact paise.
 */
import { MoneyError, parseDecimalToMinor, type Minor } from '../../../shared/money';
import { useStoredSetting } from '../ui/stored-setting';
import type { OverviewAccount } from './accounts-queries';

const storageKey = (profileId: string) => `payout-console:low-balance-threshold:${profileId}`;
const read = (text: string | null): Minor | null => (text === null || !/^\d{1,15}$/.test(text) ? null : Number(text));
const write = (minor: Minor | null) => (minor === null ? null : String(minor));

/** The threshold in paise (null for none) and the function that changes it. */
export function useLowBalanceThreshold(profileId: string | null): [Minor | null, (minor: Minor | null) => void] {
  return useStoredSetting(profileId === null ? null : storageKey(profileId), read, write);
}

// Grouped the Indian way (1,00,000) or the international way (100,000); any other comma is a typo.
const GROUPED = /^(?:\d{1,2}(?:,\d{2})*,\d{3}|\d{1,3}(?:,\d{3})+)(?:\.\d*)?$/;

/** Rupees as typed → paise, or the sentence that says what is wrong. Empty means "no threshold". */
export function parseThreshold(text: string): { ok: true; minor: Minor | null } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, minor: null };
  const plain = GROUPED.test(trimmed) ? trimmed.replaceAll(',', '') : trimmed;
  if (plain.startsWith('-')) return { ok: false, message: 'The threshold cannot be negative.' };
  try {
    return { ok: true, minor: parseDecimalToMinor(plain) };
  } catch (error) {
    if (error instanceof MoneyError && /decimal places/.test(error.message)) {
      return { ok: false, message: 'Use at most two decimal places (paise).' };
    }
    return { ok: false, message: 'Enter an amount in rupees, such as 50000 or 1,00,000.50.' };
  }
}

export type LowBalanceReason = { kind: 'minimum'; limit: Minor } | { kind: 'threshold'; limit: Minor };

/** Why an account's available balance is low, if it is: below the gateway's minimum first, then the desk's own line. */
export function lowBalanceReason(
  account: OverviewAccount,
  currency: string,
  threshold: Minor | null,
): LowBalanceReason | null {
  const latest = account.latest;
  if (!latest) return null;
  if (latest.minimumBalance !== null && latest.availableBalance < latest.minimumBalance) {
    return { kind: 'minimum', limit: latest.minimumBalance };
  }
  // The threshold is typed in rupees, so it says nothing about an account in another currency.
  if (threshold !== null && currency === 'INR' && latest.availableBalance < threshold) {
    return { kind: 'threshold', limit: threshold };
  }
  return null;
}
