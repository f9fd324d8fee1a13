/**
 * Payout lookups as the console keeps them: every status check (normal, or "advance" — a hard pull from the
 * gateway) is recorded with what it answered, so a payout's history shows when its status changed. Amounts
 * are integer paise.
 */
import { z } from 'zod';
import { maskAccount } from './accounts';
import { payoutBeneficiary } from './api/payouts';

export const PAYOUT_LOOKUP_MODES = ['normal', 'advance'] as const;
export type PayoutLookupMode = (typeof PAYOUT_LOOKUP_MODES)[number];

/** Statuses the watch list keeps refreshing: the transfer has not reached a final state. */
export const PENDING_TRANSFER_STATUSES = ['pending', 'processing', 'queued', 'initiated', 'in_process'] as const;
export const isPendingTransfer = (status: string | null): boolean =>
  status !== null && (PENDING_TRANSFER_STATUSES as readonly string[]).includes(status);

/** Final statuses in which the money did not reach the payee (or came back). */
export const FAILED_TRANSFER_STATUSES = [
  'failed',
  'rejected',
  'reversed',
  'cancelled',
  'canceled',
  'returned',
] as const;
export const isFailedTransfer = (status: string | null): boolean =>
  status !== null && (FAILED_TRANSFER_STATUSES as readonly string[]).includes(status);

const NO_UTR: Readonly<Record<string, string>> = {
  failed: 'None: the transfer failed, so no UTR will be issued.',
  rejected: 'None: the transfer was rejected, so no UTR will be issued.',
  cancelled: 'None: the transfer was cancelled, so no UTR will be issued.',
  canceled: 'None: the transfer was cancelled, so no UTR will be issued.',
  reversed: 'None: the transfer was reversed and the gateway gave no UTR.',
  returned: 'None: the transfer was returned and the gateway gave no UTR.',
  success: 'None: the transfer succeeded but the gateway gave no UTR; ask the gateway for it.',
};

/**
 * What is true of a payout's missing UTR, by its status: a failed transfer never gets one, a pending one not yet, a
 * successful one should have had one.
 */
export function missingUtrText(status: string | null): string {
  if (status === null) return 'Unknown until the gateway answers.';
  if (isPendingTransfer(status)) return 'Not issued yet: the transfer is still on its way.';
  return NO_UTR[status] ?? 'None given by the gateway.';
}

/** A payout as the domain model holds it (shared/api/payouts.ts), amount already in paise. */
export const payoutView = z.looseObject({
  transfer_status: z.string(),
  error: z.string().nullish(),
  transfer_id: z.string(),
  ut_no: z.string().nullish(),
  amount: z.number().int(),
  fund_source: z.string().optional(),
  method: z.string().optional(),
  processed_at: z.string().nullish(),
  // The wire's beneficiary as it is: it carries no money, so the API schema is already the domain one.
  beneficiary: payoutBeneficiary.optional(),
  ack: z.string().optional(),
});

export const payoutLookup = z.object({
  id: z.number().int(),
  payoutId: z.string(),
  mode: z.enum(PAYOUT_LOOKUP_MODES),
  /** ISO UTC time of the check. */
  lookedUpAt: z.string(),
  transferStatus: z.string().nullable(),
  utNo: z.string().nullable(),
  amount: z.number().int().nullable(),
  processedAt: z.string().nullable(),
  /** The gateway's own error for the payout (`error_code` / `error_message` beside it). */
  gatewayErrorCode: z.string().nullable(),
  gatewayErrorMessage: z.string().nullable(),
  /** Why the check itself failed (not found, unreachable), in the user's words; null when it answered. */
  error: z.string().nullable(),
  payout: payoutView.nullable(),
  /** ISO UTC time the console first saw the payout (its first answered lookup); null while it never answered. */
  firstSeenAt: z.string().nullable(),
});
export type PayoutLookup = z.output<typeof payoutLookup>;

export const payoutLookupRequest = z
  .object({ payoutId: z.string().trim().min(1, 'must not be empty').max(64), mode: z.enum(PAYOUT_LOOKUP_MODES) })
  .strict();
export type PayoutLookupRequest = z.input<typeof payoutLookupRequest>;

/** Where a payout's money went: the bank account (with its IFSC) or the UPI address. */
export type PayoutDestination =
  { kind: 'account'; accountNumber: string; ifsc: string | null } | { kind: 'upi'; vpa: string };

/** Methods that credit a bank account by its number and IFSC. */
const ACCOUNT_METHODS = new Set(['imps', 'neft', 'rtgs']);

const present = (v: string | null | undefined): string | null => (v == null || v.trim() === '' ? null : v.trim());

/**
 * The destination the payout used. The service sends the payee's every route whatever the method (a NEFT payout
 * to someone with a UPI address carries both), so the method decides: UPI credits the address, IMPS / NEFT / RTGS
 * the account. Blank text is absent (cached answers from before `routingText` still hold `""`). With no method, or
 * no route of the method's kind, the one route present is shown; null when there is none.
 */
export function payoutDestination(p: {
  method?: string | null;
  beneficiary?: z.output<typeof payoutBeneficiary> | null;
}): PayoutDestination | null {
  const b = p.beneficiary;
  const vpa = present(b?.vpa);
  const accountNumber = present(b?.account?.account_no);
  const account: PayoutDestination | null = accountNumber
    ? { kind: 'account', accountNumber, ifsc: present(b?.account?.ifsc) }
    : null;
  const upi: PayoutDestination | null = vpa ? { kind: 'upi', vpa } : null;
  const method = (p.method ?? '').trim().toLowerCase();
  if (method === 'upi') return upi ?? account;
  if (ACCOUNT_METHODS.has(method)) return account ?? upi;
  return account ?? upi;
}

/** The destination in one line for exports and the command line: the account masked to its last four digits. */
export function destinationText(d: PayoutDestination | null): string | null {
  if (d === null) return null;
  if (d.kind === 'upi') return d.vpa;
  return d.ifsc ? `${maskAccount(d.accountNumber)} (${d.ifsc})` : maskAccount(d.accountNumber);
}

/**
 * The recent lookups' filter, as the Payouts screen shows it and its export writes it: the latest check's transfer
 * status ("check failed" for a check that did not answer), and a search in the payout id, UTR and beneficiary name.
 */
export const CHECK_FAILED = 'check failed';

/**
 * How many payouts the Payouts screen's Recent lookups list holds: the latest check of each of the most recently
 * checked ones. Its export reads the same list, so the file holds what the screen shows.
 */
export const RECENT_LOOKUPS = 50;
export const payoutListFilter = z
  .object({
    status: z.string().trim().min(1).max(40).optional(),
    search: z.string().trim().max(100).optional(),
  })
  .strict();
export type PayoutListFilter = z.output<typeof payoutListFilter>;

/** The status a lookup is filtered by: its transfer status, or "check failed" when the check did not answer. */
export const listStatusOf = (l: PayoutLookup): string | null => (l.error !== null ? CHECK_FAILED : l.transferStatus);

/** Whether a payout's latest lookup is in the filter: the same test on screen and in the export. */
export function payoutListMatches(l: PayoutLookup, filter: PayoutListFilter): boolean {
  if (filter.status && listStatusOf(l) !== filter.status) return false;
  const q = filter.search?.trim().toLocaleLowerCase('en-IN');
  if (!q) return true;
  return [l.payoutId, l.utNo, l.payout?.beneficiary?.name].some((v) => v?.toLocaleLowerCase('en-IN').includes(q));
}
