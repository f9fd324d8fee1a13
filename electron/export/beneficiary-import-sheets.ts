/**
 * The workbooks of the beneficiary import, written with our own XLSX writer: the template (the headers the
 * importer knows, every column text so a spreadsheet keeps an account number's leading zeros, and one example
 * row that shows the shapes) and a run's per-row results. Both are written under a temporary name and renamed
 * when complete, like every export.
 */
import { BENEFICIARY_FIELDS } from '../../shared/beneficiaries';
import { OUTCOME_LABELS, TEMPLATE_HEADERS, type ImportReport } from '../../shared/beneficiary-import';
import { maskAccount } from '../../shared/accounts';
import { openAtomicFile } from './atomic-file';
import { createXlsxWriter, type ColumnSpec, type RowValues } from './xlsx-writer';

const EXAMPLE = {
  name: 'Example Traders Pvt Ltd',
  account_number: '001234567890',
  ifsc: 'HDFC0001234',
  vpa: '',
  phone: '9876543210',
  email: 'accounts@example.com',
  address: '12 MG Road, Bengaluru',
} as const;

async function writeBook(
  path: string,
  now: Date,
  sheet: string,
  columns: readonly ColumnSpec[],
  rows: readonly RowValues[],
) {
  const file = openAtomicFile(path);
  const book = createXlsxWriter(file.stream, { now });
  try {
    const out = book.addSheet(sheet, columns, { rows: rows.length });
    for (const r of rows) await out.addRow(r);
    await book.finish();
    file.commit();
  } catch (e) {
    book.abort(e instanceof Error ? e : new Error(String(e)));
    await file.discard();
    throw e;
  }
}

export function writeImportTemplate(path: string, now: Date): Promise<void> {
  const columns = BENEFICIARY_FIELDS.map((f): ColumnSpec => ({
    header: TEMPLATE_HEADERS[f],
    type: 'text',
    identifier: true,
    width: 24,
  }));
  return writeBook(path, now, 'Beneficiaries', columns, [BENEFICIARY_FIELDS.map((f) => EXAMPLE[f])]);
}

/** A run's (or a preview's) rows: account numbers masked to the last four, like every export. */
export function writeImportResults(path: string, now: Date, report: ImportReport): Promise<void> {
  const columns: ColumnSpec[] = [
    { header: 'Row', type: 'integer' },
    { header: 'Name', type: 'text', width: 30 },
    { header: 'Account', type: 'text', identifier: true },
    { header: 'IFSC', type: 'text', identifier: true },
    { header: 'Bank', type: 'text', width: 24 },
    { header: 'IFSC warning', type: 'text', width: 40 },
    { header: 'UPI address', type: 'text', width: 24 },
    { header: 'Outcome', type: 'text', width: 30 },
    { header: 'Beneficiary id', type: 'text', identifier: true, width: 22 },
    { header: 'Reason', type: 'text', width: 60 },
  ];
  const rows = report.rows.map((r): RowValues => [
    r.row,
    r.name,
    r.account_number ? maskAccount(r.account_number) : '',
    r.ifsc,
    r.bank ?? '',
    r.ifscWarning ?? '',
    r.vpa,
    OUTCOME_LABELS[r.outcome],
    r.beneficiaryId ?? '',
    r.reason ?? '',
  ]);
  return writeBook(path, now, 'Import results', columns, rows);
}
