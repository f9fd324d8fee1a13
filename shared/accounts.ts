/**
 * Payout accounts per gateway and their balances over time, as the console keeps them: every refresh
 * adds a snapshot per account (for the history chart), and a gateway that answered with its own error
 * keeps that error, shown in its card, until it answers again. Amounts are integer paise.
 */
import { z } from 'zod';

const minor = z.number().int();

export const cachedAccount = z.object({
  pg: z.string(),
  accountNumber: z.string(),
  ifscCode: z.string().nullable(),
  accountType: z.string().nullable(),
  currency: z.string().nullable(),
  /** The most one transfer may move; null when the gateway does not say. */
  transactionLimit: minor.nullable(),
  extra: z.record(z.string(), z.unknown()).nullable(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
});
export type CachedAccount = z.output<typeof cachedAccount>;

/** `accountNumber` is '' when a balance call named no account. */
export const balanceSnapshot = z.object({
  id: z.number().int(),
  pg: z.string(),
  accountNumber: z.string(),
  takenAt: z.string(),
  source: z.enum(['accounts', 'balance']),
  availableBalance: minor,
  accountBalance: minor.nullable(),
  minimumBalance: minor.nullable(),
  holdFund: minor.nullable(),
  overdraft: minor.nullable(),
});
export type BalanceSnapshot = z.output<typeof balanceSnapshot>;

export const gatewayError = z.object({
  pg: z.string(),
  code: z.string().nullable(),
  message: z.string(),
  at: z.string(),
});
export type GatewayError = z.output<typeof gatewayError>;

export const accountsOverview = z.object({
  accounts: z.array(
    cachedAccount.extend({
      /** The newest accounts answer: every balance figure, as of one moment. */
      latest: balanceSnapshot.nullable(),
      /** A balance check newer than `latest` (it carries the available balance only), or null. */
      checked: balanceSnapshot.nullable(),
    }),
  ),
  gatewayErrors: z.array(gatewayError),
  /** ISO UTC time of the newest snapshot or gateway answer; null before the first refresh. */
  asOf: z.string().nullable(),
});
export type AccountsOverview = z.output<typeof accountsOverview>;

export const balanceCheckRequest = z
  .object({
    pg: z.string().trim().min(1).max(64).optional(),
    accountNumber: z.string().trim().min(1).max(34).optional(),
  })
  .strict();

export const balanceHistoryQuery = z
  .object({
    pg: z.string().min(1).max(64).optional(),
    accountNumber: z.string().max(34).optional(),
    since: z.string().max(40).optional(),
    limit: z.number().int().min(1).max(10_000).optional(),
  })
  .strict();

/**
 * An account number as statements print it: only the last four digits, so a screen share, a screenshot or a
 * terminal log never carries a whole account number.
 */
export function maskAccount(accountNumber: string): string {
  return accountNumber.length <= 4 ? accountNumber : `•••••${accountNumber.slice(-4)}`;
}

/** What a screen reader says instead of the bullets. */
export function accountLabel(accountNumber: string): string {
  return accountNumber.length <= 4 ? `account ${accountNumber}` : `account ending ${accountNumber.slice(-4)}`;
}
