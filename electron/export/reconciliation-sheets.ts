/**
 * The reconciliation of a bank account and period, as the screen exports it and `export reconciliation` writes it.
 * XLSX (for people): `Summary` (batches and credits by state, with counts, amounts and differences), `Batches`
 * (every batch of the period with its state, difference, credits and note), `Credits` (every statement credit of
 * the period with its state and the batch it pays), `Statements` (each statement with lines in the period and its
 * completeness proof) and `Audit` (where the data came from, as every workbook). CSV (for systems): the Batches and
 * Credits tables as `<name>-batches.csv` and `<name>-credits.csv`, with the Summary's figures in `<name>.about.txt`.
 * Every file is written under a temporary name and all are renamed together when complete, like every export.
 * Money in rupees from integer paise.
 */
import { join, parse } from 'node:path';
import { BATCH_STATE_LABELS, CREDIT_STATE_LABELS, stateLabel, type ReconReport } from '../../shared/bank-matching';
import type { CsvIdForm } from '../../shared/exports';
import { formatDateRange } from '../../shared/format';
import { sumMinor } from '../../shared/money';
import { openOutputs } from './atomic-file';
import { createCsvWriter } from './csv-writer';
import {
  AUDIT_COLUMNS,
  AUDIT_SHEET,
  auditRows,
  csvProvenance,
  writeSidecarFile,
  type ExportContext,
  type Provenance,
} from './provenance';
import { createXlsxWriter, type ColumnSpec, type RowValues, type XlsxWriter } from './xlsx-writer';

const HOW: Readonly<Record<string, string>> = {
  utr: 'By UTR',
  amount: 'By exact amount',
  split: 'Split credits',
  manual: 'By hand',
};

const BATCH_COLUMNS: readonly ColumnSpec[] = [
  { header: 'Date', type: 'date' },
  { header: 'Gateway', type: 'text', width: 12 },
  { header: 'UTR', type: 'text', identifier: true, width: 18 },
  { header: 'Settled at (IST)', type: 'datetime' },
  { header: 'Records', type: 'integer' },
  { header: 'Net settled (INR)', type: 'money' },
  { header: 'Exceptions', type: 'integer' },
  { header: 'State', type: 'text', width: 34 },
  { header: 'Matched', type: 'text', width: 16 },
  { header: 'Difference (INR)', type: 'money' },
  { header: 'Credit lines', type: 'text', identifier: true, width: 14 },
  { header: 'Note', type: 'text', width: 40 },
];

const CREDIT_COLUMNS: readonly ColumnSpec[] = [
  { header: 'Line', type: 'integer' },
  { header: 'Date', type: 'date' },
  { header: 'Narration', type: 'text', width: 60 },
  { header: 'Reference', type: 'text', identifier: true, width: 18 },
  { header: 'UTR', type: 'text', identifier: true, width: 24 },
  { header: 'Amount (INR)', type: 'money' },
  { header: 'State', type: 'text', width: 24 },
  { header: 'Batch gateway', type: 'text', width: 12 },
  { header: 'Batch UTR', type: 'text', identifier: true, width: 18 },
  { header: 'Batch settled at (IST)', type: 'datetime' },
];

function batchRows(report: ReconReport): RowValues[] {
  return report.batches.map((b) => [
    b.date,
    b.pg,
    b.utr === '' ? 'UTR pending' : b.utr,
    b.settlementDate,
    b.records,
    b.settled,
    b.exceptions,
    stateLabel(BATCH_STATE_LABELS[b.state], b.lateDays),
    b.how ? HOW[b.how]! : '',
    b.difference,
    b.lineIds.join(' '),
    b.note ?? '',
  ]);
}

function creditRows(report: ReconReport): RowValues[] {
  return report.credits.map((c) => [
    c.id,
    c.date,
    c.narration,
    c.reference ?? '',
    c.utr ?? '',
    c.amount,
    stateLabel(CREDIT_STATE_LABELS[c.state], c.lateDays),
    c.batch?.pg ?? '',
    c.batch ? c.batch.utr || 'UTR pending' : '',
    c.batch?.settlementDate ?? null,
  ]);
}

/** What the export holds, for its Audit sheet or `.about.txt`: the Summary's figures are in it too. */
function provenance(report: ReconReport, parts: Provenance['parts']): Provenance {
  const { settings } = report;
  return {
    what: 'Reconciliation',
    scope: [
      ['Bank account', report.account.name],
      ['Period', `${formatDateRange(report.from, report.to)} (batch dates, IST)`],
      [
        'Matching',
        `credits up to ${settings.windowDays} days after a batch; a batch without one is overdue after T+${settings.overdueDays}`,
      ],
      ...report.batchTotals.map((t): [string, string] => [
        `Batches ${t.label.toLowerCase()}`,
        `${t.count.toLocaleString('en-IN')}`,
      ]),
      ...report.creditTotals.map((t): [string, string] => [
        `Credits ${t.label.toLowerCase()}`,
        `${t.count.toLocaleString('en-IN')}`,
      ]),
    ],
    rows: report.batches.length + report.credits.length,
    totals: [
      ['net settled of the batches', sumMinor(report.batches.map((b) => b.settled))],
      ['credits', sumMinor(report.credits.map((c) => c.amount))],
    ],
    parts,
  };
}

/** Where a reconciliation CSV's tables go: `name-batches.csv` and `name-credits.csv` beside the chosen name. */
export function reconciliationCsvFiles(file: string): { batches: string; credits: string } {
  const { dir, name } = parse(file);
  return { batches: join(dir, `${name}-batches.csv`), credits: join(dir, `${name}-credits.csv`) };
}

export interface ReconciliationExport {
  format: 'xlsx' | 'csv';
  context: ExportContext;
  /** A CSV's identifiers (shared/exports.ts `CSV_ID_FORMS`). */
  ids?: CsvIdForm;
}

/** Writes the report to `path` (XLSX) or beside it (CSV); resolves every file written, the data first. */
export async function writeReconciliation(
  path: string,
  now: Date,
  report: ReconReport,
  options: ReconciliationExport,
): Promise<string[]> {
  const outputs = openOutputs();
  try {
    if (options.format === 'csv') await writeCsv(outputs, path, report, options);
    else await writeXlsx(outputs, path, now, report, options.context);
    return outputs.commit();
  } catch (e) {
    await outputs.discard();
    throw e;
  }
}

async function writeCsv(
  outputs: ReturnType<typeof openOutputs>,
  path: string,
  report: ReconReport,
  options: ReconciliationExport,
): Promise<void> {
  const files = reconciliationCsvFiles(path);
  const tables = [
    [files.batches, BATCH_COLUMNS, batchRows(report)],
    [files.credits, CREDIT_COLUMNS, creditRows(report)],
  ] as const;
  for (const [file, columns, rows] of tables) {
    const csv = createCsvWriter(outputs.open(file).stream, columns, { ids: options.ids });
    try {
      for (const row of rows) {
        const wait = csv.addRow(row);
        if (wait) await wait;
      }
      await csv.finish();
    } catch (e) {
      csv.abort();
      throw e;
    }
  }
  const parts = tables.map(([file, , rows]): [string, string] => [
    file === files.batches ? 'Batches file' : 'Credits file',
    `${parse(file).base} (${rows.length.toLocaleString('en-IN')} rows)`,
  ]);
  await writeSidecarFile(outputs, path, options.context, csvProvenance(provenance(report, parts), options.ids));
}

async function addRows(
  book: XlsxWriter,
  name: string,
  columns: readonly ColumnSpec[],
  rows: readonly RowValues[],
  autoFilter = true,
) {
  const sheet = book.addSheet(name, columns, { rows: rows.length, autoFilter });
  for (const row of rows) await sheet.addRow(row);
}

async function writeXlsx(
  outputs: ReturnType<typeof openOutputs>,
  path: string,
  now: Date,
  report: ReconReport,
  context: ExportContext,
): Promise<void> {
  const book = createXlsxWriter(outputs.open(path).stream, { now });
  try {
    const summary = book.addSheet(
      'Summary',
      [
        { header: 'Of', type: 'text', width: 10 },
        { header: 'State', type: 'text', width: 38 },
        { header: 'Count', type: 'integer' },
        { header: 'Amount (INR)', type: 'money' },
        { header: 'Difference (INR)', type: 'money' },
      ],
      { rows: report.batchTotals.length + report.creditTotals.length + 1 },
    );
    for (const t of report.batchTotals) await summary.addRow(['Batches', t.label, t.count, t.amount, t.difference]);
    // Counted within their state above too: a late match is still a match.
    await summary.addRow([
      'Batches',
      `Of those matched, credited after T+${report.settings.overdueDays}`,
      report.late.count,
      report.late.amount,
      null,
    ]);
    for (const t of report.creditTotals) await summary.addRow(['Credits', t.label, t.count, t.amount, t.difference]);

    await addRows(book, 'Batches', BATCH_COLUMNS, batchRows(report));
    await addRows(book, 'Credits', CREDIT_COLUMNS, creditRows(report));

    // Each statement of the period with its completeness proof: a gap found at import stays in front of the reader.
    const statements = book.addSheet(
      'Statements',
      [
        { header: 'File', type: 'text', width: 30 },
        { header: 'Layout', type: 'text', width: 20 },
        { header: 'Lines from', type: 'date' },
        { header: 'Lines to', type: 'date' },
        { header: 'Complete', type: 'text', width: 12 },
        { header: 'Proof', type: 'text', width: 100 },
      ],
      { rows: report.statements.length },
    );
    for (const st of report.statements)
      await statements.addRow([
        st.fileName,
        st.layout,
        st.from,
        st.to,
        st.holds === null ? 'not checked' : st.holds ? 'yes' : 'NO',
        st.sentence,
      ]);
    const sheets = 'Summary, Batches, Credits, Statements';
    await addRows(
      book,
      AUDIT_SHEET,
      AUDIT_COLUMNS,
      auditRows(context, provenance(report, [['Sheets', sheets]])),
      false,
    );
    await book.finish();
  } catch (e) {
    book.abort(e instanceof Error ? e : new Error(String(e)));
    throw e;
  }
}
