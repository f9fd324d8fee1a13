/**
 * What a sync changed, how complete each date's paging was, and the exception workflow, as the UI, the CLI and
 * the exports see them. The cache writes them (electron/cache/settlement-changes.ts, settlement-manifests.ts,
 * settlement-exceptions.ts); amounts are integer paise throughout.
 */
import { z } from 'zod';
import { calendarDate } from './api/common';
import { cacheDate, filterText } from './settlement-query';

export const CHANGE_KINDS = ['new', 'changed', 'vanished', 'returned'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** What a changed field means to the desk; `other` is any field not named here (description, order date…). */
export const FIELD_CHANGE_MEANINGS = [
  'status',
  'amount',
  'utr_filled',
  'utr_replaced',
  'utr_removed',
  'dispute_opened',
  'dispute_closed',
  'other',
] as const;
export type FieldChangeMeaning = (typeof FIELD_CHANGE_MEANINGS)[number];

/** What a field's change means, in the desk's words ("UTR (UTR replaced)"). */
export const FIELD_CHANGE_MEANING_LABELS: Readonly<Record<FieldChangeMeaning, string>> = {
  status: 'status',
  amount: 'amount',
  utr_filled: 'UTR filled in',
  utr_replaced: 'UTR replaced',
  utr_removed: 'UTR removed',
  dispute_opened: 'dispute opened',
  dispute_closed: 'dispute closed',
  other: 'changed',
};

/** Names of record fields as the grid and the record's detail name them, also for the values an exception names. */
export const FIELD_LABELS = {
  date: 'Date asked for',
  pg: 'Gateway',
  pg_transaction_id: 'Gateway transaction ID',
  order_id: 'Order ID',
  utr: 'UTR',
  settlement_date: 'Settled at',
  settlement_dates: 'Settled at',
  order_date: 'Ordered at',
  order_status: 'Order status',
  pg_status: 'Gateway status',
  payment_mode: 'Payment mode',
  amount: 'Amount',
  mer_service_fee: 'Service fee',
  mer_service_tax: 'Service tax',
  cgst: 'CGST',
  sgst: 'SGST',
  igst: 'IGST',
  merchant_subvention_amount: 'Merchant subvention',
  settled_amount: 'Settled amount',
  expected: 'Expected settled amount',
  difference: 'Difference',
  times_settled: 'Times settled',
  dispute_id: 'Dispute ID',
  description: 'Description',
} as const;

/**
 * A record field's name as the desk reads it ("UTR", "Dispute ID"), on the record's detail, the Changes view and
 * the Changes export; a field the console does not know, as named.
 */
export const fieldLabel = (key: string): string => (FIELD_LABELS as Readonly<Record<string, string>>)[key] ?? key;

const fieldValue = z.union([z.string(), z.number(), z.null()]);

export const fieldChange = z.object({
  field: z.string(),
  old: fieldValue,
  new: fieldValue,
  meaning: z.enum(FIELD_CHANGE_MEANINGS),
});
export type FieldChange = z.output<typeof fieldChange>;

export const settlementChange = z.object({
  id: z.number().int().positive(),
  runId: z.number().int().positive(),
  recordId: z.number().int(),
  date: calendarDate,
  pg: z.string(),
  pgTransactionId: z.string(),
  settlementDate: z.string(),
  kind: z.enum(CHANGE_KINDS),
  fields: z.array(fieldChange),
  at: z.string(),
});
export type SettlementChange = z.output<typeof settlementChange>;

export const CHANGES_PAGE_MAX = 1000;

/** Which changes: a range, and optionally one gateway, one sync run, one kind of change. */
const changesScope = z.object({
  from: cacheDate,
  to: cacheDate,
  pg: filterText.optional(),
  /** One sync run's changes only. */
  runId: z.number().int().positive().optional(),
  kind: z.enum(CHANGE_KINDS).optional(),
});
const fromNotAfterTo = (q: { from: string; to: string }) => q.from <= q.to;
const toBeforeFrom = { message: 'must not be before from', path: ['to'] };

export const changesQuery = changesScope
  .extend({
    /** Keyset: the last change id of the previous page. */
    afterId: z.number().int().nonnegative().optional(),
    limit: z.number().int().min(1).max(CHANGES_PAGE_MAX).default(200),
  })
  .strict()
  .refine(fromNotAfterTo, toBeforeFrom);
/** The Changes view's selection as its export takes it: every change it selects, not a page. */
export const changesFilter = changesScope.strict().refine(fromNotAfterTo, toBeforeFrom);
export type ChangesFilter = z.output<typeof changesFilter>;
export type ChangesQuery = z.input<typeof changesQuery>;

const count = z.number().int().nonnegative();

/** Counts of a range's changes by kind, and the sync runs that made them (newest first). */
export const changesSummary = z.object({
  byKind: z.object({ new: count, changed: count, vanished: count, returned: count }),
  runs: z.array(
    z.object({
      runId: z.number().int().positive(),
      at: z.string(),
      changes: count,
      from: calendarDate,
      to: calendarDate,
    }),
  ),
});
export type ChangesSummary = z.output<typeof changesSummary>;

export const changesPage = z.object({ changes: z.array(settlementChange), nextAfterId: z.number().int().nullable() });
export type ChangesPage = z.output<typeof changesPage>;

/** What one pass over a (date, gateway) saw, as stored after the sync: the date's completeness. */
export const manifestRow = z.object({
  date: calendarDate,
  pg: z.string(),
  runId: z.number().int().positive(),
  pages: count,
  records: count,
  /** Net settled in paise of the records the last pass returned. */
  settled: z.number().int(),
  /** An order-independent digest of the last pass's records (key and every field). */
  digest: z.string(),
  fetchedAt: z.string(),
  passes: z.number().int().positive(),
  /** Page boundaries whose overlapping record did not match: the service's list moved while we paged. */
  shifts: count,
  /** The last pass saw no shift and, where there was more than one pass, agreed with the one before. */
  stable: z.boolean(),
});
export type ManifestRow = z.output<typeof manifestRow>;

export const manifestQuery = z
  .object({ from: cacheDate, to: cacheDate, pg: filterText.optional() })
  .strict()
  .refine((q) => q.from <= q.to, { message: 'must not be before from', path: ['to'] });

/** Completeness of a date: every gateway's manifest stable, or which are not, or never synced with a manifest. */
export const dateCompleteness = z.object({
  date: calendarDate,
  state: z.enum(['complete', 'unstable', 'unknown']),
  gateways: z.array(manifestRow),
});
export type DateCompleteness = z.output<typeof dateCompleteness>;

// ---- Exception workflow ----------------------------------------------------------------------------------------

export const EXCEPTION_STATES = ['open', 'acknowledged', 'resolved'] as const;
export type ExceptionState = (typeof EXCEPTION_STATES)[number];

export const EXCEPTION_ACTIONS = ['acknowledge', 'note', 'assign', 'resolve', 'reopen'] as const;
export type ExceptionAction = (typeof EXCEPTION_ACTIONS)[number];

/** Free text a person types: one line or a paragraph, no control characters but new lines and tabs. */
const personText = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(2000, 'must be at most 2,000 characters')
  // eslint-disable-next-line no-control-regex
  .refine((t) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(t), 'must not contain control characters');

export const exceptionActionRequest = z.discriminatedUnion('action', [
  z
    .object({ recordId: z.number().int().positive(), action: z.literal('acknowledge'), text: personText.optional() })
    .strict(),
  z.object({ recordId: z.number().int().positive(), action: z.literal('note'), text: personText }).strict(),
  z
    .object({
      recordId: z.number().int().positive(),
      action: z.literal('assign'),
      text: personText.refine((t) => t.length <= 120, 'must be at most 120 characters'),
    })
    .strict(),
  z
    .object({ recordId: z.number().int().positive(), action: z.literal('resolve'), text: personText.optional() })
    .strict(),
  z
    .object({ recordId: z.number().int().positive(), action: z.literal('reopen'), text: personText.optional() })
    .strict(),
]);
export type ExceptionActionRequest = z.input<typeof exceptionActionRequest>;

export const triageAnswer = z.object({
  /** The likely cause (one of TRIAGE_CAUSES) and its probability. */
  cause: z.string(),
  causeProbability: z.number().min(0).max(1),
  causeProbabilities: z.record(z.string(), z.number().min(0).max(1)),
  /** The probability that it needs escalation. */
  escalate: z.number().min(0).max(1),
  escalateConfidence: z.number().min(0).max(1),
  /** Severity 1–5 and its probability. */
  severity: z.number(),
  severityProbability: z.number().min(0).max(1),
  model: z.string(),
});
export type TriageAnswer = z.output<typeof triageAnswer>;

export const exceptionStateRow = z.object({
  state: z.enum(EXCEPTION_STATES),
  assignee: z.string().nullable(),
  note: z.string().nullable(),
  updatedAt: z.string().nullable(),
  triage: triageAnswer.nullable(),
  triagedAt: z.string().nullable(),
  /** The cause, set only when the triage was at least as confident as the threshold. */
  tag: z.string().nullable(),
});
export type ExceptionStateRow = z.output<typeof exceptionStateRow>;

export const exceptionEvent = z.object({ at: z.string(), action: z.string(), text: z.string().nullable() });
export type ExceptionEvent = z.output<typeof exceptionEvent>;

export const exceptionDetail = exceptionStateRow.extend({ events: z.array(exceptionEvent) });
export type ExceptionDetail = z.output<typeof exceptionDetail>;

/** The likely causes the triage asks the model to choose from (well under the 20 options a choice may have). */
export const TRIAGE_CAUSES = {
  gateway_fee_error: 'The gateway charged a wrong fee or tax, so the settled amount is off',
  late_utr: 'The bank reference (UTR) has not been assigned yet and will arrive later',
  chargeback: 'A customer dispute or chargeback was raised on the payment',
  duplicate_settlement: 'The gateway settled the same payment twice',
  failed_payment_settled: 'A payment that failed was settled anyway',
  data_entry: 'A data or rounding error in the record',
} as const;

/** Below this the cause is stored with its probability but the exception is not tagged with it. */

export const triageRequest = z
  .object({
    date: cacheDate,
    pg: filterText.optional(),
    /** This run's threshold; without it, the profile's (shared/bank-matching.ts, reconSettings). */
    threshold: z.number().min(0).max(1).optional(),
    /** Re-ask records already triaged. */
    again: z.boolean().default(false),
  })
  .strict();
export type TriageRequest = z.input<typeof triageRequest>;

export const triageSummary = z.object({
  date: calendarDate,
  exceptions: count,
  triaged: count,
  tagged: count,
  skipped: count,
  /** Records not triaged, with why (the service's reason, or too large to send). */
  failed: z.array(z.object({ recordId: z.number().int(), pgTransactionId: z.string(), reason: z.string() })),
  model: z.string().nullable(),
  /** The threshold the run tagged by. */
  threshold: z.number().min(0).max(1),
});
export type TriageSummary = z.output<typeof triageSummary>;
