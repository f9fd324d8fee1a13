/**
 * What a settlement export holds, sheet by sheet: the columns of the detail rows (every field of the record,
 * identifiers as text, money as exact rupees, times as real date-times), the Summary sheet and the Exceptions
 * sheet. Pure: rows in, cell values out; the writers decide how each type is written.
 */
import { formatMinor } from '../../shared/money';
import {
  MONEY_VALUE_NAMES,
  SETTLEMENT_MONEY_FIELDS,
  RULES,
  expectedSettledAmount,
  lineKind,
  type ReconciliationException,
  type RuleId,
} from '../../shared/reconciliation';
import {
  BATCH_STATE_LABELS,
  batchKeyText,
  matchedState,
  unmatchedBatchState,
  type ReconSettings,
} from '../../shared/bank-matching';
import type { CachedSettlement, SettlementAggregate, SettlementFilter } from '../../shared/settlement-query';
import type { BatchCredit, BatchRow } from '../cache/reconciliation';
import {
  FIELD_CHANGE_MEANING_LABELS,
  fieldLabel,
  type DateCompleteness,
  type ExceptionStateRow,
  type SettlementChange,
} from '../../shared/settlement-changes';
import {
  idColumn as id,
  istColumn,
  istOfIso,
  jsonOrNull,
  moneyColumn as money,
  textColumn as text,
} from './column-specs';
import type { ColumnSpec, PrintLayout, RowValues } from './xlsx-writer';

/**
 * The detail columns in three sets, each printed on a page width of its own at 8 pt or more (`DETAIL_PRINT`; all 23
 * on one width printed at 3 pt): first what a person ties a row with, its date and ids and the sum
 * amount − service fee − service tax + subvention = settled amount (`expectedSettledAmount`); then when, where and
 * how it was paid, with the tax's CGST/SGST/IGST breakdown; then the free text.
 */
const RECONCILE_COLUMNS: readonly ColumnSpec[] = [
  { header: 'Date', type: 'date' },
  id('Order id', 22),
  id('PG transaction id', 24),
  id('UTR', 22),
  money('Amount'),
  money('Service fee'),
  money('Service tax'),
  money('Subvention'),
  money('Settled amount'),
];
const PAYMENT_COLUMNS: readonly ColumnSpec[] = [
  text('Gateway'),
  { header: 'Settled at (IST)', type: 'datetime' },
  { header: 'Ordered at (IST)', type: 'datetime' },
  text('Order status'),
  text('PG status'),
  text('Payment mode'),
  money('CGST'),
  money('SGST'),
  money('IGST'),
];
const NOTE_COLUMNS: readonly ColumnSpec[] = [
  id('Dispute id'),
  text('Description', 30),
  text('Exceptions', 30),
  { header: 'Gone from the API at (IST)', type: 'datetime' },
  text('Other fields (JSON)', 30),
];

/** The detail columns, in the order `detailRow` fills them. */
export const DETAIL_COLUMNS: readonly ColumnSpec[] = [...RECONCILE_COLUMNS, ...PAYMENT_COLUMNS, ...NOTE_COLUMNS];
export const DETAIL_PRINT: PrintLayout = {
  columnSets: [RECONCILE_COLUMNS.length, PAYMENT_COLUMNS.length, NOTE_COLUMNS.length],
};

export function detailRow(r: CachedSettlement): RowValues {
  return [
    r.date,
    r.order_id,
    r.pg_transaction_id,
    r.utr,
    r.amount,
    r.mer_service_fee,
    r.mer_service_tax,
    r.merchant_subvention_amount,
    r.settled_amount,
    r.pg,
    r.settlement_date,
    r.order_date,
    r.order_status,
    r.pg_status,
    r.payment_mode,
    r.cgst,
    r.sgst,
    r.igst,
    r.dispute_id,
    r.description,
    r.exceptions.length ? r.exceptions.map((e) => e.rule).join('; ') : null,
    r.vanishedAt === null ? null : istOfIso(r.vanishedAt),
    jsonOrNull(r.extra),
  ];
}

/**
 * The Exceptions columns in three sets, each printed on a page width of its own at 8 pt or more
 * (`EXCEPTION_PRINT`; all 21 on one width printed at 3 pt): first what a reviewer works the queue by, the record's
 * date, gateway and ids to find it, the rule it broke, the money at risk to rank it, and whose it is; then why, the
 * rule's check with the amounts it compared and the values that broke it; then the workflow's note and tag and the
 * triage.
 */
const EXCEPTION_REVIEW_COLUMNS: readonly ColumnSpec[] = [
  { header: 'Date', type: 'date' },
  text('Gateway'),
  id('Order id', 22),
  id('PG transaction id', 24),
  id('UTR', 22),
  text('Rule', 26),
  money('Amount at risk'),
  text('Workflow state', 14),
  text('Assigned to', 18),
];
const EXCEPTION_WHY_COLUMNS: readonly ColumnSpec[] = [
  text('What the rule checks', 48),
  money('Expected'),
  money('Actual'),
  money('Difference'),
  text('Values that broke it', 60),
];
const EXCEPTION_TRIAGE_COLUMNS: readonly ColumnSpec[] = [
  text('Note', 40),
  text('Tag', 22),
  text('Likely cause (triage)', 22),
  { header: 'Cause probability (%)', type: 'integer' },
  { header: 'Severity (1–5, rounded)', type: 'integer' },
  { header: 'Needs escalation (%)', type: 'integer' },
  text('Triage model', 20),
];

/** The Exceptions columns, in the order `exceptionRows` fills them. */
export const EXCEPTION_COLUMNS: readonly ColumnSpec[] = [
  ...EXCEPTION_REVIEW_COLUMNS,
  ...EXCEPTION_WHY_COLUMNS,
  ...EXCEPTION_TRIAGE_COLUMNS,
];
export const EXCEPTION_PRINT: PrintLayout = {
  columnSets: [EXCEPTION_REVIEW_COLUMNS.length, EXCEPTION_WHY_COLUMNS.length, EXCEPTION_TRIAGE_COLUMNS.length],
};

/** The Changes sheet: a line per changed field (one line for a record new, vanished or back), oldest first. */
export const CHANGE_COLUMNS: readonly ColumnSpec[] = [
  { header: 'Date', type: 'date' },
  { header: 'Sync run', type: 'integer' },
  istColumn('Changed at'),
  text('Change', 10),
  text('Gateway'),
  id('PG transaction id', 24),
  { header: 'Settled at (IST)', type: 'datetime' },
  text('Field', 24),
  text('What it means', 16),
  id('Old value', 22),
  id('New value', 22),
];

/** The Manifest sheet: a line per (date, gateway) of the range, what the latest sync's paging saw. */
export const MANIFEST_COLUMNS: readonly ColumnSpec[] = [
  { header: 'Date', type: 'date' },
  text('Gateway'),
  text('Completeness', 14),
  { header: 'Pages', type: 'integer' },
  { header: 'Records', type: 'integer' },
  money('Settled'),
  { header: 'Passes', type: 'integer' },
  { header: 'Shifts seen', type: 'integer' },
  text('Stable', 8),
  id('Digest', 34),
  istColumn('Fetched at'),
  { header: 'Sync run', type: 'integer' },
];

export function manifestRows(dates: readonly DateCompleteness[]): RowValues[] {
  return dates.flatMap((d): RowValues[] =>
    d.gateways.length === 0
      ? [[d.date, null, 'not recorded', null, null, null, null, null, null, null, null, null]]
      : d.gateways.map((g) => [
          d.date,
          g.pg,
          d.state,
          g.pages,
          g.records,
          g.settled,
          g.passes,
          g.shifts,
          g.stable ? 'yes' : 'no',
          g.digest,
          istOfIso(g.fetchedAt),
          g.runId,
        ]),
  );
}

/**
 * The Bank credits sheet: a line per batch of the range (one bank credit each: gateway, UTR, settlement time) with
 * what it rolls up and, where a statement was matched to it, the credit and its reconciliation state.
 */
export const BANK_CREDIT_COLUMNS: readonly ColumnSpec[] = [
  { header: 'Date', type: 'date' },
  text('Gateway'),
  id('UTR', 22),
  { header: 'Settled at (IST)', type: 'datetime' },
  { header: 'Records', type: 'integer' },
  money('Gross'),
  money('Fees'),
  money('Taxes'),
  money('Subvention'),
  money('Net settled'),
  { header: 'Exceptions', type: 'integer' },
  text('Reconciliation', 34),
  text('Matched', 16),
  text('Bank account', 18),
  text('Credit dates', 24),
  money('Credited'),
  money('Difference'),
];

const MATCHED_HOW: Readonly<Record<BatchCredit['how'], string>> = {
  utr: 'By UTR',
  amount: 'By exact amount',
  split: 'Split credits',
  manual: 'By hand',
};

/**
 * One row per batch. Unmatched, a batch is "not yet due" or "overdue" by T+n as the Reconciliation screen says,
 * once any statement has been imported; with none there is nothing to reconcile against and the sheet says so.
 */
export function bankCreditRows(
  batches: readonly BatchRow[],
  credits: ReadonlyMap<string, BatchCredit>,
  reconciled: { today: string; settings: ReconSettings } | null,
): RowValues[] {
  return batches.map((b) => {
    const c = credits.get(batchKeyText(b));
    const difference = c ? c.credited - b.settled : null;
    const state = c
      ? BATCH_STATE_LABELS[matchedState(c.how, difference!)]
      : reconciled
        ? BATCH_STATE_LABELS[unmatchedBatchState(b, reconciled.today, reconciled.settings)]
        : 'No bank statement imported';
    return [
      b.date,
      b.pg,
      b.utr === '' ? 'UTR pending' : b.utr,
      b.settlementDate,
      b.records,
      b.amount,
      b.fees,
      b.taxes,
      b.subvention,
      b.settled,
      b.exceptions,
      state,
      c ? MATCHED_HOW[c.how] : null,
      c?.account ?? null,
      c?.creditDates ?? null,
      c?.credited ?? null,
      difference,
    ];
  });
}

/** A field's value as text: amounts as exact rupees, empty as nothing. */
function changeValue(field: string, v: string | number | null): string | null {
  if (v === null || v === '') return null;
  return typeof v === 'number' && SETTLEMENT_MONEY_FIELDS.has(field) ? formatMinor(v) : String(v);
}

export function changeRows(c: SettlementChange): RowValues[] {
  const head = [c.date, c.runId, istOfIso(c.at), c.kind, c.pg, c.pgTransactionId, c.settlementDate];
  if (c.fields.length === 0) return [[...head, null, null, null, null]];
  // The field and its meaning in the desk's words, as the Changes view names them ("UTR", "UTR replaced").
  return c.fields.map((f) => [
    ...head,
    fieldLabel(f.field),
    FIELD_CHANGE_MEANING_LABELS[f.meaning],
    changeValue(f.field, f.old),
    changeValue(f.field, f.new),
  ]);
}

export function describeValues(values: ReconciliationException['values']): string {
  return Object.entries(values)
    .map(([k, v]) => `${k} = ${typeof v === 'number' && MONEY_VALUE_NAMES.has(k) ? formatMinor(v) : String(v)}`)
    .join('; ');
}

/** The amounts an exception line can be summed by, in minor units. */
export interface ExceptionAmounts {
  /** What the rule expected the record to show. */
  expected: number;
  /** What the record shows. */
  actual: number;
  /** Actual minus expected. */
  difference: number;
  /** The money whose settlement is in question because of this exception. */
  atRisk: number;
}

/**
 * Every rule as the same four numbers, from the record (the cached values describe the record when it was checked,
 * which is the record exported):
 *  - the two mismatch rules compare amounts: settled vs amount − fee − tax + subvention, service tax vs CGST + SGST
 *    + IGST; at risk is the size of the difference;
 *  - failed but settled expected nothing to be settled: the whole settled amount is the difference and at risk;
 *  - missing UTR and duplicate settlement do not dispute the amount (difference 0): the settled amount is at risk,
 *    since it cannot be traced to a bank credit or may have been paid more than once (each settlement of a duplicated
 *    transaction has its own line, with its own amount);
 *  - an open dispute puts the payment's amount at risk.
 */
export function exceptionAmounts(r: CachedSettlement, rule: ReconciliationException['rule']): ExceptionAmounts {
  const same = (amount: number, atRisk: number) => ({ expected: amount, actual: amount, difference: 0, atRisk });
  switch (rule) {
    case 'settled_amount_mismatch': {
      const expected = expectedSettledAmount(r);
      const difference = r.settled_amount - expected;
      return { expected, actual: r.settled_amount, difference, atRisk: Math.abs(difference) };
    }
    case 'tax_breakdown_mismatch': {
      const expected = r.cgst + r.sgst + r.igst;
      const difference = r.mer_service_tax - expected;
      return { expected, actual: r.mer_service_tax, difference, atRisk: Math.abs(difference) };
    }
    case 'failed_but_settled':
      return { expected: 0, actual: r.settled_amount, difference: r.settled_amount, atRisk: r.settled_amount };
    case 'missing_utr':
    case 'duplicate_settlement':
      return same(r.settled_amount, r.settled_amount);
    case 'dispute_open':
      return same(r.settled_amount, r.amount);
  }
}

const percent = (p: number) => Math.round(p * 100);

/** One row per exception of the record: a record that breaks two rules has two lines, each with its workflow. */
export function exceptionRows(r: CachedSettlement, state: ExceptionStateRow): RowValues[] {
  const t = state.triage;
  const triage = [
    state.note,
    state.tag,
    t?.cause ?? null,
    t ? percent(t.causeProbability) : null,
    t ? Math.round(t.severity) : null,
    t ? percent(t.escalate) : null,
    t?.model ?? null,
  ];
  return r.exceptions.map((e) => {
    const a = exceptionAmounts(r, e.rule);
    return [
      r.date,
      r.pg,
      r.order_id,
      r.pg_transaction_id,
      r.utr,
      e.rule,
      a.atRisk,
      state.state,
      state.assignee,
      RULES[e.rule],
      a.expected,
      a.actual,
      a.difference,
      describeValues(e.values),
      ...triage,
    ];
  });
}

/** Every figure a Summary line shows or checks: integer paise, counts of records. */
export type WorkbookFigure =
  | 'count'
  | 'amount'
  | 'fees'
  | 'taxes'
  | 'cgst'
  | 'igst'
  | 'sgst'
  | 'subvention'
  | 'settled'
  | 'sales'
  | 'refunds'
  | 'chargebacks';

/** One Summary line. */
export type WorkbookGroup = { date: string; pg: string; paymentMode: string } & Record<WorkbookFigure, number>;
export interface WorkbookSummary {
  groups: WorkbookGroup[];
  /** Records breaking each rule. */
  ruleCounts: Record<RuleId, number>;
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

/** The Summary's columns and the amounts split by kind of line. */
const ALL_FIGURES: readonly WorkbookFigure[] = [...FIGURES, 'sales', 'refunds', 'chargebacks'];

/** The figures the cache sums per date x gateway x payment mode (`aggregate`), which each line is checked on. */
const CACHED_FIGURES = ['count', 'amount', 'fees', 'taxes', 'settled', 'sales', 'refunds', 'chargebacks'] as const;

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
  sales: 0,
  refunds: 0,
  chargebacks: 0,
});

const KIND_FIGURE = { sale: 'sales', refund: 'refunds', chargeback: 'chargebacks' } as const;

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
  t[KIND_FIGURE[lineKind(r)]] += r.amount;
}

export function grandTotal(groups: readonly WorkbookGroup[]): Totals {
  const t = zeroTotals();
  for (const g of groups) for (const f of ALL_FIGURES) t[f] += g[f];
  return t;
}

/**
 * The Summary's lines, added up from the detail rows as they are written. Summing the records again in SQL, grouped
 * and sorted, was about a tenth of the CPU the rows of an export cost (docs/performance/export-at-the-floor.md); the
 * cache's own sums for the filter (`aggregate`: its rollup wherever the filter allows) are the check instead.
 */
export function createSummaryLines() {
  const byDate = new Map<string, Map<string, Map<string, Totals>>>();
  let lines = 0;
  return {
    add(r: CachedSettlement): void {
      let byPg = byDate.get(r.date);
      if (byPg === undefined) byDate.set(r.date, (byPg = new Map()));
      let byMode = byPg.get(r.pg);
      if (byMode === undefined) byPg.set(r.pg, (byMode = new Map()));
      let t = byMode.get(r.payment_mode);
      if (t === undefined) {
        byMode.set(r.payment_mode, (t = zeroTotals()));
        lines++;
      }
      addRecord(t, r);
    },
    /**
     * The lines in the order of the cache's groups (date, gateway, payment mode, as SQL sorts them), or the first
     * figure on which the rows written and the cache differ: a workbook whose Summary disagrees with the cache's
     * totals is never handed over.
     */
    linesAgainst(
      cached: SettlementAggregate['byDate'],
    ): WorkbookGroup[] | { differs: string; group?: SettlementAggregate['byDate'][number] } {
      if (cached.length !== lines) return { differs: 'groups' };
      const groups: WorkbookGroup[] = [];
      for (const c of cached) {
        const t = byDate.get(c.date)?.get(c.pg)?.get(c.paymentMode);
        if (t === undefined) return { differs: 'groups', group: c };
        const differs = CACHED_FIGURES.find((f) => t[f] !== c[f]);
        if (differs !== undefined) return { differs, group: c };
        groups.push({ date: c.date, pg: c.pg, paymentMode: c.paymentMode, ...t });
      }
      return groups;
    },
  };
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

/**
 * The net settled line by line, each signed as it moves the net, so they add up to it: sales, refunds and
 * chargebacks (negative), fees and taxes taken (negative), subvention added; then what the gateway settled
 * otherwise than amount − fee − tax + subvention (a failed payment's amount not paid, a few paise off). Labels
 * short enough for the Summary's first column, since the amount beside them would cut a longer one.
 */
export function netSettledLines(t: Totals): [label: string, paise: number][] {
  const byRule = t.amount - t.fees - t.taxes + t.subvention;
  return [
    ['Sales', t.sales],
    ['Refunds', t.refunds],
    ['Chargebacks', t.chargebacks],
    ['Fees', -t.fees],
    ['Taxes (GST)', -t.taxes],
    ['Subvention', t.subvention],
    ['Adjustments', t.settled - byRule],
    ['Net settled', t.settled],
  ];
}

const label = (l: string, value: string | number, type: 'text' | 'integer' = 'text'): RowValues => [
  { type: 'text', value: l },
  { type, value },
];

/** One detail sheet as written: its name, the dates it holds and what its rows add up to. */
export interface DetailSheet {
  name: string;
  firstDate: string | null;
  lastDate: string | null;
  totals: Totals;
}

/**
 * The Summary sheet below its header: a line per group and the grand total; then a subtotal line per detail sheet
 * (so each sheet can be checked on its own); the net settled line by line (sales, refunds, chargebacks, fees,
 * taxes, subvention: an accountant's lines, amounts in the second column); the records breaking each rule; and
 * cells cut to fit. Where the
 * export comes from is on the Audit sheet.
 */
export function summaryRows(summary: WorkbookSummary, sheets: readonly DetailSheet[], cutCells: number): RowValues[] {
  const line = (t: Totals): RowValues => FIGURES.map((f) => t[f]);
  const total = grandTotal(summary.groups);
  const txt = (value: string) => ({ type: 'text', value }) as const;
  return [
    ...summary.groups.map((g) => [g.date, g.pg, g.paymentMode, ...line(g)]),
    [txt('Grand total'), null, null, ...line(total)],
    [],
    [txt('Subtotal per detail sheet')],
    ...sheets.map((s) => [
      txt(s.name),
      txt(
        s.firstDate === null
          ? 'no records'
          : s.firstDate === s.lastDate
            ? s.firstDate
            : `${s.firstDate} to ${s.lastDate}`,
      ),
      null,
      ...line(s.totals),
    ]),
    [],
    [
      txt(
        'Net settled, line by line: the lines above it add up to it ' +
          '(adjustments: failed payments not paid, paise off amount − fees − taxes + subvention)',
      ),
    ],
    ...netSettledLines(total).map(([l, paise]) => [txt(l), { type: 'money', value: paise }] as RowValues),
    [],
    [txt('Reconciliation exceptions (records breaking each rule)')],
    ...Object.entries(summary.ruleCounts).map(([rule, count]) =>
      label(`${rule}: ${RULES[rule as keyof typeof RULES]}`, count, 'integer'),
    ),
    [],
    label('Text cells cut to fit (whole in the CSV export)', cutCells, 'integer'),
  ];
}

/** Records per settlement date, in date order, from the Summary's groups. */
export function recordsPerDate(groups: readonly { date: string; count: number }[]): number[] {
  const byDate = new Map<string, number>();
  for (const g of groups) byDate.set(g.date, (byDate.get(g.date) ?? 0) + g.count);
  return [...byDate.keys()].sort().map((d) => byDate.get(d)!);
}

/**
 * How many records each detail sheet (or CSV file) takes: whole days together, so a day is never split across two
 * sheets unless it alone holds more than a sheet does (then it fills sheets of its own and its rest starts the next).
 * Always at least one part, empty when there are no records.
 */
export function planParts(perDate: readonly number[], capacity: number): number[] {
  const parts: number[] = [];
  let current = 0;
  for (let count of perDate) {
    if (current + count <= capacity) {
      current += count;
      continue;
    }
    if (current > 0) parts.push(current);
    for (; count > capacity; count -= capacity) parts.push(capacity);
    current = count;
  }
  if (current > 0 || parts.length === 0) parts.push(current);
  return parts;
}
