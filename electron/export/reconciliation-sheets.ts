/**
 * The reconciliation of a bank account and period as a workbook, written with our own XLSX writer under a temporary
 * name and renamed when complete, like every export: `Summary` (batches and credits by state, with counts, amounts
 * and differences), `Batches` (every batch of the period with its state, difference, credits and note) and `Credits`
 * (every statement credit of the period with its state and the batch it pays) and `Statements` (each statement
 * with lines in the period and its completeness proof). Money in rupees from integer paise.
 */
import { BATCH_STATE_LABELS, CREDIT_STATE_LABELS, stateLabel, type ReconReport } from '../../shared/bank-matching';
import { openAtomicFile } from './atomic-file';
import { createXlsxWriter, type ColumnSpec } from './xlsx-writer';

const HOW: Readonly<Record<string, string>> = {
  utr: 'By UTR',
  amount: 'By exact amount',
  split: 'Split credits',
  manual: 'By hand',
};

export async function writeReconciliation(path: string, now: Date, report: ReconReport): Promise<void> {
  const file = openAtomicFile(path);
  const book = createXlsxWriter(file.stream, { now });
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

    const batchColumns: ColumnSpec[] = [
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
    const batches = book.addSheet('Batches', batchColumns, { rows: report.batches.length });
    for (const b of report.batches)
      await batches.addRow([
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

    const credits = book.addSheet(
      'Credits',
      [
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
      ],
      { rows: report.credits.length },
    );
    for (const c of report.credits)
      await credits.addRow([
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
    await book.finish();
    file.commit();
  } catch (e) {
    book.abort(e instanceof Error ? e : new Error(String(e)));
    await file.discard();
    throw e;
  }
}
