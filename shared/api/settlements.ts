/**
 * Settlement records for a date, paged by `offset` / `limit` until `is_last_page`.
 *
 * Money: `amount`, `mer_service_fee`, `mer_service_tax` and `settled_amount` are integers of minor units;
 * `merchant_subvention_amount`, `cgst`, `igst` and `sgst` are decimal strings in major units and become
 * exact minor units. The document shows one variant only.
 */
import { z } from 'zod';
import { calendarDate, istDateTime, majorAmount, minorInt, nonEmpty, requestId, statusTrue } from './common';

/**
 * A fee or its GST: the gateway charges them and never pays them out, so a negative one is refused. Amounts and
 * settled amounts may be negative (a refund or chargeback netted out of a batch); the fee and GST of the sale are
 * not given back on those lines and they carry none of their own (docs/design/not-shown.md).
 */
const NOT_A_CHARGE = 'is negative: a fee or its GST is charged by the gateway, never paid by it';
const charge = <T extends z.ZodType<number>>(amount: T) => amount.refine((v) => v >= 0, NOT_A_CHARGE);

export const settlementRecord = z.looseObject({
  order_id: z.string().nullable(),
  pg_transaction_id: z.string(),
  order_date: istDateTime,
  // Typed as a string, "" when missing; a real service may send null or leave it out. All three are "no UTR".
  utr: z
    .string()
    .nullish()
    .transform((v) => (v == null || v.trim() === '' ? null : v)),
  settlement_date: istDateTime,
  order_status: z.string(),
  pg_status: z.string(),
  payment_mode: z.string(),
  amount: minorInt,
  mer_service_fee: charge(minorInt),
  mer_service_tax: charge(minorInt),
  merchant_subvention_amount: majorAmount,
  cgst: charge(majorAmount),
  igst: charge(majorAmount),
  sgst: charge(majorAmount),
  settled_amount: minorInt,
  dispute_id: z.string().nullable(),
  description: z.string().nullable(),
  pg: z.string().optional(),
});
export type SettlementRecord = z.output<typeof settlementRecord>;

/** Our documented paging limits (the document does not give them); the sandbox enforces the same. */
export const SETTLEMENT_PAGE = { defaultLimit: 100, maxLimit: 1000 } as const;

/** Whole non-negative numbers, sent as text as the document shows (`"0"`, `"500"`). */
const countText = z
  .union([z.number().int().nonnegative(), z.string().regex(/^\d+$/, 'must be a whole number')])
  .transform((v) => String(v));

export const settlementFetchRequest = z.object({
  date: calendarDate,
  pg: nonEmpty.optional(),
  offset: countText.optional(),
  limit: countText
    .refine((v) => Number(v) > 0, 'must be at least 1')
    .refine((v) => Number(v) <= SETTLEMENT_PAGE.maxLimit, `must be at most ${SETTLEMENT_PAGE.maxLimit}`)
    .optional(),
});
export type SettlementFetchRequest = z.input<typeof settlementFetchRequest>;

export const settlementFetchResponse = z
  .looseObject({
    status: statusTrue,
    data: z.array(settlementRecord),
    is_last_page: z.boolean(),
    request_id: requestId,
  })
  .transform(({ data, is_last_page, request_id }) => ({ data, is_last_page, request_id }));
export type SettlementPage = z.output<typeof settlementFetchResponse>;
