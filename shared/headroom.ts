/**
 * "Payable now": what can be paid out of each account, gateway and in total, in integer paise.
 *
 *   payable now          = available − minimum balance                   (a missing minimum counts as 0)
 *   with the overdraft   = payable now + overdraft                       (a missing overdraft counts as 0)
 *   after pending        = payable now − pending payouts known to the console for that gateway
 *
 * "Available" is the service's `available_balance`, which already leaves out the hold (account balance − hold: see
 * docs/design/not-shown.md, "Available balance"); the hold is shown beside it, never subtracted a second time.
 *
 * Every figure of an account comes from one answer of the payout-accounts call (its newest snapshot), so they are
 * of one moment. A gateway whose last answer was an error keeps its last good figures, marked stale with the error
 * and their time. A gateway with no figure at all (it has only ever answered errors) has no payable figures: null, never
 * a zero it did not report, and it is left out of the total, which names it (`unreported`). Pending payouts are those whose newest lookup in the cache has a pending status, attributed to the
 * gateway named by their fund source; one whose fund source is no known gateway counts in the total only.
 *
 * A gateway is low when its payable now, less its pending payouts, is below the desk's threshold for it (exact
 * paise, typed in rupees): the amount it can still take on. Payable now can be negative (held or below minimum):
 * it is shown as it is, never clamped.
 */
import { z } from 'zod';
import type { AccountsOverview, GatewayError } from './accounts';

const minor = z.number().int();

export const accountHeadroom = z.object({
  pg: z.string(),
  accountNumber: z.string(),
  currency: z.string(),
  available: minor,
  minimum: minor,
  hold: minor,
  overdraft: minor,
  payable: minor,
  payableWithOverdraft: minor,
  /** ISO UTC time of the answer these figures come from. */
  takenAt: z.string(),
});
export type AccountHeadroom = z.output<typeof accountHeadroom>;

const figures = {
  payable: minor,
  payableWithOverdraft: minor,
  /** Sum of the pending payouts known to the console, and how many. */
  pending: minor,
  pendingCount: z.number().int(),
};

export const gatewayHeadroom = z.object({
  pg: z.string(),
  /** Null when the gateway has given no figure yet: never a zero that was not reported. */
  payable: minor.nullable(),
  payableWithOverdraft: minor.nullable(),
  pending: minor,
  pendingCount: z.number().int(),
  afterPending: minor.nullable(),
  afterPendingWithOverdraft: minor.nullable(),
  /** The gateway's last answer was this error: the figures are its last good ones (`asOf`). */
  stale: z.object({ code: z.string().nullable(), message: z.string(), at: z.string() }).nullable(),
  /** ISO UTC time of the oldest account figure of this gateway; null when it has none. */
  asOf: z.string().nullable(),
  threshold: minor.nullable(),
  low: z.boolean(),
});
export type GatewayHeadroom = z.output<typeof gatewayHeadroom>;

export const headroomReport = z.object({
  accounts: z.array(accountHeadroom),
  gateways: z.array(gatewayHeadroom),
  total: z.object({ ...figures, afterPending: minor, afterPendingWithOverdraft: minor }),
  /**
   * ISO UTC time of the oldest figure in the total (null when there is none): the report is read from the cache,
   * so offline, or after a failed refresh, this is how old "payable now" is.
   */
  asOf: z.string().nullable(),
  /** Gateways with no figure at all, left out of the total's payable figures. */
  unreported: z.array(z.string()),
  /** Pending payouts whose fund source is no gateway with accounts: in the total only. */
  unattributedPending: minor,
  /** INR only: the arithmetic never adds amounts of two currencies; accounts in others are listed, not summed. */
  otherCurrencies: z.array(z.string()),
});
export type HeadroomReport = z.output<typeof headroomReport>;

export const headroomThreshold = z
  .object({ pg: z.string().trim().min(1).max(64), threshold: minor.min(0).max(Number.MAX_SAFE_INTEGER).nullable() })
  .strict();

export interface PendingPayout {
  /** The gateway it is paid from (the payout's fund source), if known. */
  pg: string | null;
  amount: number;
}

/** The payable-now arithmetic of one account's figures; `available` already excludes the hold. */
export function headroomOf(f: { available: number; minimum: number | null; overdraft: number | null }): {
  payable: number;
  payableWithOverdraft: number;
} {
  const payable = f.available - (f.minimum ?? 0);
  return { payable, payableWithOverdraft: payable + (f.overdraft ?? 0) };
}

/** The earliest of ISO UTC times (they sort as text), or null. */
function oldest(times: readonly (string | null)[]): string | null {
  return times.filter((t): t is string => t !== null).sort()[0] ?? null;
}

function exact(n: number, what: string): number {
  if (!Number.isSafeInteger(n)) throw new RangeError(`${what} is too large to add up exactly`);
  return n;
}

export function computeHeadroom(
  overview: Pick<AccountsOverview, 'accounts' | 'gatewayErrors'>,
  pending: readonly PendingPayout[],
  thresholds: Readonly<Record<string, number>>,
): HeadroomReport {
  const accounts: AccountHeadroom[] = [];
  const otherCurrencies = new Set<string>();
  for (const a of overview.accounts) {
    const s = a.latest;
    if (!s) continue;
    const currency = (a.currency ?? 'INR').toUpperCase();
    if (currency !== 'INR') otherCurrencies.add(currency);
    const h = headroomOf({
      available: s.availableBalance,
      minimum: s.minimumBalance,
      overdraft: s.overdraft,
    });
    accounts.push({
      pg: a.pg,
      accountNumber: a.accountNumber,
      currency,
      available: s.availableBalance,
      minimum: s.minimumBalance ?? 0,
      hold: s.holdFund ?? 0,
      overdraft: s.overdraft ?? 0,
      ...h,
      takenAt: s.takenAt,
    });
  }
  const inr = accounts.filter((a) => a.currency === 'INR');
  const errors = new Map<string, GatewayError>(overview.gatewayErrors.map((e) => [e.pg, e]));
  const pgs = [...new Set([...inr.map((a) => a.pg), ...errors.keys()])].sort();
  const pendingOf = (pg: string | null) => pending.filter((p) => p.pg === pg);
  const sum = (xs: readonly number[], what: string) =>
    exact(
      xs.reduce((t, x) => t + x, 0),
      what,
    );

  const gateways = pgs.map((pg): GatewayHeadroom => {
    const mine = inr.filter((a) => a.pg === pg);
    const payable = sum(
      mine.map((a) => a.payable),
      `${pg}'s payable now`,
    );
    const payableWithOverdraft = sum(
      mine.map((a) => a.payableWithOverdraft),
      `${pg}'s payable now`,
    );
    const owed = pendingOf(pg);
    const pendingSum = sum(
      owed.map((p) => p.amount),
      `${pg}'s pending payouts`,
    );
    const error = errors.get(pg);
    const threshold = thresholds[pg] ?? null;
    const reported = mine.length > 0;
    const afterPending = reported ? payable - pendingSum : null;
    return {
      pg,
      payable: reported ? payable : null,
      payableWithOverdraft: reported ? payableWithOverdraft : null,
      pending: pendingSum,
      pendingCount: owed.length,
      afterPending,
      afterPendingWithOverdraft: reported ? payableWithOverdraft - pendingSum : null,
      stale: error ? { code: error.code, message: error.message, at: error.at } : null,
      asOf: oldest(mine.map((a) => a.takenAt)),
      threshold,
      low: threshold !== null && afterPending !== null && afterPending < threshold,
    };
  });
  const known = new Set(pgs);
  const unattributed = pending.filter((p) => p.pg === null || !known.has(p.pg));
  const totalPending = sum(
    pending.map((p) => p.amount),
    'the pending payouts',
  );
  const payable = sum(
    gateways.map((g) => g.payable ?? 0),
    'payable now',
  );
  const payableWithOverdraft = sum(
    gateways.map((g) => g.payableWithOverdraft ?? 0),
    'payable now',
  );
  return {
    accounts,
    gateways,
    total: {
      payable,
      payableWithOverdraft,
      pending: totalPending,
      pendingCount: pending.length,
      afterPending: payable - totalPending,
      afterPendingWithOverdraft: payableWithOverdraft - totalPending,
    },
    asOf: oldest(gateways.map((g) => g.asOf)),
    unreported: gateways.filter((g) => g.payable === null).map((g) => g.pg),
    unattributedPending: sum(
      unattributed.map((p) => p.amount),
      'the pending payouts',
    ),
    otherCurrencies: [...otherCurrencies].sort(),
  };
}
