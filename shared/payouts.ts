/**
 * Payout lookups as the console keeps them: every status check (normal, or "advance" — a hard pull from the
 * gateway) is recorded with what it answered, so a payout's history shows when its status changed. Amounts
 * are integer paise.
 */
import { z } from 'zod';
import { payoutBeneficiary } from './api/payouts';

export const PAYOUT_LOOKUP_MODES = ['normal', 'advance'] as const;
export type PayoutLookupMode = (typeof PAYOUT_LOOKUP_MODES)[number];

/** Statuses the watch list keeps refreshing: the transfer has not reached a final state. */
export const PENDING_TRANSFER_STATUSES = ['pending', 'processing', 'queued', 'initiated', 'in_process'] as const;
export const isPendingTransfer = (status: string | null): boolean =>
  status !== null && (PENDING_TRANSFER_STATUSES as readonly string[]).includes(status);

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
});
export type PayoutLookup = z.output<typeof payoutLookup>;

export const payoutLookupRequest = z
  .object({ payoutId: z.string().trim().min(1, 'must not be empty').max(64), mode: z.enum(PAYOUT_LOOKUP_MODES) })
  .strict();
export type PayoutLookupRequest = z.input<typeof payoutLookupRequest>;
