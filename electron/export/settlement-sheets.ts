/**
 * What a settlement export holds, sheet by sheet: the columns of the detail rows (every field of the record,
 * identifiers as text, money as exact rupees, times as real date-times), the Summary sheet and the Exceptions
 * sheet. Pure: rows in, cell values out; the writers decide how each type is written.
 */
import { formatMinor } from '../../shared/money';
import { MONEY_VALUE_NAMES, RULES, type ReconciliationException } from '../../shared/reconciliation';
import type { CachedSettlement, SettlementFilter } from '../../shared/settlement-query';
import type { WorkbookFigure, WorkbookGroup, WorkbookSummary } from '../cache/settlements';
import { istOfIso, jsonOrNull, moneyColumn as money, textColumn as text } from './column-specs';
import type { ColumnSpec, RowValues } from './xlsx-writer';

/** The detail columns, in the order `detailRow` fills them. */
export const DETAIL_COLUMNS: readonly ColumnSpec[] = [
  { header: 'Date', type: 'date' },
  text('Gateway'),
  text('PG transaction id', 24),
  { header: 'Settled at (IST)', type: 'datetime' },
  text('Order id', 22),
  { header: 'Ordered at (IST)', type: 'datetime' },
  text('UTR', 22),
  text('Order status'),
  text('PG status'),
  text('Payment mode'),
  money('Amount'),
  money('Service fee'),
  money('Service tax'),
  money('CGST'),
  money('SGST'),
  money('IGST'),
  money('Subvention'),
  money('Settled amount'),
  text('Dispute id'),
  text('Description', 30),
  text('Exceptions', 30),
  { header: 'Gone from the API at (IST)', type: 'datetime' },
  text('Other fields (JSON)', 30),
];

export function detailRow(r: CachedSettlement): RowValues {
  return [
    r.date,
    r.pg,
    r.pg_transaction_id,
    r.settlement_date,
    r.order_id,
    r.order_date,
    r.utr,
    r.order_status,
    r.pg_status,
    r.payment_mode,
    r.amount,
    r.mer_service_fee,
    r.mer_service_tax,
    r.cgst,
    r.sgst,
    r.igst,
    r.merchant_subvention_amount,
    r.settled_amount,
    r.dispute_id,
    r.description,
    r.exceptions.length ? r.exceptions.map((e) => e.rule).join('; ') : null,
    r.vanishedAt === null ? null : istOfIso(r.vanishedAt),
    jsonOrNull(r.extra),
  ];
}

export const EXCEPTION_COLUMNS: readonly ColumnSpec[] = [
  { header: 'Date', type: 'date' },
  text('Gateway'),
  text('PG transaction id', 24),
  text('Order id', 22),
  text('UTR', 22),
  text('Rule', 26),
  text('What the rule checks', 48),
  text('Values that broke it', 60),
  money('Difference'),
];

export function describeValues(values: ReconciliationException['values']): string {
  return Object.entries(values)
    .map(([k, v]) => `${k} = ${typeof v === 'number' && MONEY_VALUE_NAMES.has(k) ? formatMinor(v) : String(v)}`)
    .join('; ');
}

/** One row per exception of the record: a record that breaks two rules has two lines. */
export function exceptionRows(r: CachedSettlement): RowValues[] {
  return r.exceptions.map((e) => [
    r.date,
    r.pg,
    r.pg_transaction_id,
    r.order_id,
    r.utr,
    e.rule,
    RULES[e.rule],
    describeValues(e.values),
    typeof e.values['difference'] === 'number' ? e.values['difference'] : null,
  ]);
}

/** The Summary's figures in the order its columns show them. */
const FIGURES: readonly WorkbookFigure[] = [
  'count',
  'amount',
  'fees',
  'taxes',
  'cgst',
  'sgst',
  'igst',
  'subvention',
  'settled',
];

export const SUMMARY_COLUMNS: readonly ColumnSpec[] = [
  { header: 'Date', type: 'date', width: 14 },
  text('Gateway', 18),
  text('Payment mode', 16),
  { header: 'Records', type: 'integer' },
  money('Amount'),
  money('Fees'),
  money('Taxes'),
  money('CGST'),
  money('SGST'),
  money('IGST'),
  money('Subvention'),
  money('Settled'),
];

export type Totals = Record<WorkbookFigure, number>;

export const zeroTotals = (): Totals => ({
  count: 0,
  amount: 0,
  fees: 0,
  taxes: 0,
  cgst: 0,
  sgst: 0,
  igst: 0,
  subvention: 0,
  settled: 0,
});

/** Adds a record to running totals; integers only, so the sum is exact while it stays below 2^53 paise. */
export function addRecord(t: Totals, r: CachedSettlement): void {
  t.count += 1;
  t.amount += r.amount;
  t.fees += r.mer_service_fee;
  t.taxes += r.mer_service_tax;
  t.cgst += r.cgst;
  t.sgst += r.sgst;
  t.igst += r.igst;
  t.subvention += r.merchant_subvention_amount;
  t.settled += r.settled_amount;
}

export function grandTotal(groups: readonly WorkbookGroup[]): Totals {
  const t = zeroTotals();
  for (const g of groups) for (const f of FIGURES) t[f] += g[f];
  return t;
}

/** The first figure on which two totals differ, or null: the export's check that detail and Summary agree. */
export function firstDifference(a: Totals, b: Totals): string | null {
  return FIGURES.find((f) => a[f] !== b[f]) ?? null;
}

export interface ExportContext {
  profileName: string;
  environment: string;
  baseUrl: string;
  /** Generated at, IST wall clock. */
  generatedAtIst: string;
  /** The profile's journal head hash when the export started (electron/journal/), for the Audit sheet. */
  journalHead?: string;
}

/** The filter in words, for the Summary sheet: every narrowing the user chose. */
export function describeFilter(f: SettlementFilter): string {
  const parts = [
    f.pg && `gateway ${f.pg}`,
    f.paymentMode && `payment mode ${f.paymentMode}`,
    f.orderStatus && `order status ${f.orderStatus}`,
    f.pgStatus && `PG status ${f.pgStatus}`,
    f.rule ? `breaks "${RULES[f.rule]}"` : f.exceptionsOnly && 'exceptions only',
    f.search && `id or UTR contains "${f.search}"`,
    f.state &&
      f.state !== 'current' &&
      (f.state === 'vanished' ? 'only records gone from the API' : 'including records gone from the API'),
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'none (every cached record of the range)';
}

const label = (l: string, value: string | number, type: 'text' | 'integer' = 'text'): RowValues => [
  { type: 'text', value: l },
  { type, value },
];

/** The Summary sheet below its header: a line per group, the grand total, then what the export is. */
export function summaryRows(
  summary: WorkbookSummary,
  filter: SettlementFilter,
  ctx: ExportContext,
  sheets: number,
): RowValues[] {
  const line = (t: Totals): RowValues => FIGURES.map((f) => t[f]);
  const total = grandTotal(summary.groups);
  return [
    ...summary.groups.map((g) => [g.date, g.pg, g.paymentMode, ...line(g)]),
    [{ type: 'text', value: 'Grand total' }, null, null, ...line(total)],
    [],
    label('Profile', `${ctx.profileName} (${ctx.environment}, ${ctx.baseUrl})`),
    label('Date range', `${filter.from} to ${filter.to} (settlement dates, IST)`),
    label('Filters', describeFilter(filter)),
    label('Generated at', `${ctx.generatedAtIst} IST`),
    label('Records', total.count, 'integer'),
    label('Detail sheets', sheets, 'integer'),
    [],
    [{ type: 'text', value: 'Reconciliation exceptions (records breaking each rule)' }],
    ...Object.entries(summary.ruleCounts).map(([rule, count]) =>
      label(`${rule}: ${RULES[rule as keyof typeof RULES]}`, count, 'integer'),
    ),
  ];
}
