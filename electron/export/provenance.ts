/**
 * What an export is, for whoever files it: where the data came from (profile, environment, base URL), what was
 * asked (range, filters or view), when, how many rows with which totals, and by which app. Every XLSX carries it
 * as its "Audit" sheet; a CSV as a sidecar text file beside the data (`<name>.about.txt`), so the data file stays a
 * plain table any system can read.
 */
import { once } from 'node:events';
import type { CsvIdForm } from '../../shared/exports';
import { formatMinor } from '../../shared/money';
import type { Outputs } from './atomic-file';
import { textColumn } from './column-specs';
import type { ColumnSpec, RowValues } from './xlsx-writer';

export interface ExportContext {
  profileName: string;
  environment: string;
  baseUrl: string;
  /** Generated at, IST wall clock. */
  generatedAtIst: string;
  /** The version of the app that wrote the export. */
  appVersion: string;
  /** The hash at the head of the audit journal when the export was made, where the journal is kept. */
  journalHead?: string;
}

export interface Provenance {
  /** What was exported, in words ("Settlements", "Beneficiaries"). */
  what: string;
  /** The selection: date range and filters, or the list's view. */
  scope: readonly (readonly [label: string, text: string])[];
  rows: number;
  /** Totals of the exported rows, in minor units. */
  totals: readonly (readonly [label: string, minor: number])[];
  /** Where the rows are: sheets of a workbook, files of a CSV. */
  parts: readonly (readonly [label: string, text: string])[];
  /** Text cells cut to fit a workbook's cells (their whole text is in the CSV). */
  cutCells?: number;
}

type Item = { label: string } & ({ type: 'text'; value: string } | { type: 'integer' | 'money'; value: number });

function items(ctx: ExportContext, p: Provenance): Item[] {
  const text = (label: string, value: string): Item => ({ label, type: 'text', value });
  return [
    text('Export', p.what),
    text('Profile', ctx.profileName),
    text('Environment', ctx.environment),
    text('Base URL', ctx.baseUrl),
    ...p.scope.map(([label, value]) => text(label, value)),
    text('Generated at (IST)', ctx.generatedAtIst),
    { label: 'Rows', type: 'integer', value: p.rows },
    ...p.totals.map(([label, value]): Item => ({ label: `Total ${label} (INR)`, type: 'money', value })),
    ...p.parts.map(([label, value]) => text(label, value)),
    ...(p.cutCells === undefined ? [] : [{ label: 'Cells cut to fit', type: 'integer' as const, value: p.cutCells }]),
    text('App', `Payout Console ${ctx.appVersion}`),
    ...(ctx.journalHead === undefined ? [] : [text('Journal head hash', ctx.journalHead)]),
  ];
}

export const AUDIT_SHEET = 'Audit';
export const AUDIT_COLUMNS: readonly ColumnSpec[] = [textColumn('Item', 28), textColumn('Value', 90)];

/** The Audit sheet's rows below its header: a label and a typed value each. */
export function auditRows(ctx: ExportContext, p: Provenance): RowValues[] {
  return items(ctx, p).map((i) => [i.label, { type: i.type, value: i.value }]);
}

/** The CSV sidecar: `Label: value` lines, money as exact decimals, CRLF like the CSV itself. */
export function sidecarText(ctx: ExportContext, p: Provenance): string {
  const lines = items(ctx, p).map((i) => {
    // A label or value never spans lines, so each line is one item for whoever parses the file.
    const value = i.type === 'money' ? formatMinor(i.value) : String(i.value).replace(/[\r\n]+/g, ' ');
    return `${i.label}: ${value}`;
  });
  return lines.join('\r\n') + '\r\n';
}

/** `report.csv` → `report.about.txt`: not `.csv`, so a folder of CSV files read by a system never takes it for data. */
export function sidecarPath(csvPath: string): string {
  return csvPath.replace(/(\.csv)?$/i, '.about.txt');
}

/** How the CSV wrote its identifiers, in words for whoever opens it, and what that means for a lookup. */
const CSV_IDS: Readonly<Record<CsvIdForm, string>> = {
  plain:
    'exactly as the service gave them; a spreadsheet may turn a long number into a number, so for a spreadsheet ' +
    'export with identifiers as text.',
  tab:
    'each starts with a tab, so spreadsheets keep it as text; the tab stays in the cell, so a VLOOKUP or MATCH ' +
    'against another sheet needs CLEAN() around it (or export with identifiers as ="…" for Excel).',
  formula:
    'each written as ="…", which Excel and LibreOffice show as exactly the identifier; a system reading this file ' +
    'sees the =" and " around it, so give systems the plain CSV.',
};

/** A CSV's provenance with the form of its identifiers, for its `.about.txt`. */
export function csvProvenance(p: Provenance, ids: CsvIdForm = 'plain'): Provenance {
  return { ...p, scope: [...p.scope, ['Identifiers', CSV_IDS[ids]]] };
}

/** Writes the `.about.txt` beside `csvFile`, among the export's other files (committed with them). */
export async function writeSidecarFile(
  outputs: Outputs,
  csvFile: string,
  ctx: ExportContext,
  provenance: Provenance,
): Promise<void> {
  const out = outputs.open(sidecarPath(csvFile)).stream;
  const closed = once(out, 'close');
  out.end(sidecarText(ctx, provenance), 'utf8');
  await closed;
  if (out.errored) throw out.errored;
}
