/**
 * Exports for the accountants: what to export, in which format, progress while it is written, and the end.
 * Files are written by the main process from the cache (never from what the renderer holds), to a temporary
 * name renamed at the end, so a cancelled or failed export never leaves a half file under the final name.
 */
import { z } from 'zod';
import { settlementFilter } from './settlement-query';

export const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_KINDS = ['settlements', 'beneficiaries', 'payouts', 'balances', 'journal', 'payoutCheck'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

const format = z.enum(EXPORT_FORMATS);

/** Rows a spreadsheet shows below a header row (Excel's and LibreOffice's sheet limit is 1,048,576 rows). */
export const SPREADSHEET_DATA_ROWS = 1_048_575;

/**
 * CSV is for systems, XLSX for people; these options shape a CSV for a person who will open it anyway.
 *  - excelSafe: identifier columns are written so spreadsheets keep them as text (leading zeros, 16-digit accounts);
 *  - oneFile: past `SPREADSHEET_DATA_ROWS` rows the CSV is split into numbered files, each with the header, unless
 *    this asks for one file (which spreadsheets will truncate; the result carries a warning saying so).
 */
export const csvOptions = z.object({ excelSafe: z.boolean().optional(), oneFile: z.boolean().optional() }).strict();
export type CsvExportOptions = z.output<typeof csvOptions>;

const csv = csvOptions.optional();

export const exportRequest = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('settlements'), format, filter: settlementFilter, csv }).strict(),
    z.object({ kind: z.literal('beneficiaries'), format, csv }).strict(),
    z.object({ kind: z.literal('payouts'), format, csv }).strict(),
    z.object({ kind: z.literal('balances'), format, csv }).strict(),
    /** The profile's whole audit journal, oldest first, with each entry's hashes. */
    z.object({ kind: z.literal('journal'), format, csv }).strict(),
    /** One bulk payout check run: an item per id with its outcome and what the check answered. */
    z.object({ kind: z.literal('payoutCheck'), runId: z.number().int().positive(), format, csv }).strict(),
  ])
  .refine((r) => r.format === 'csv' || r.csv === undefined, {
    message: 'CSV options apply to CSV exports only',
    path: ['csv'],
  });
export type ExportRequest = z.output<typeof exportRequest>;

export const EXPORT_PHASES = ['counting', 'writing', 'finishing'] as const;

export const exportProgress = z.object({
  kind: z.enum(EXPORT_KINDS),
  phase: z.enum(EXPORT_PHASES),
  rowsWritten: z.number().int().nonnegative(),
  /** Null until counted. */
  rowsTotal: z.number().int().nonnegative().nullable(),
});
export type ExportProgress = z.output<typeof exportProgress>;

export const exportResult = z.object({
  kind: z.enum(EXPORT_KINDS),
  format,
  /** Where the file is, when it was written (the first of a split CSV). */
  file: z.string().nullable(),
  /** Every file written: the data files (several for a split CSV), then a CSV's provenance sidecar. */
  files: z.array(z.string()),
  rows: z.number().int().nonnegative(),
  /** Data sheets the settlement detail took (more than one past Excel's row limit). */
  sheets: z.number().int().nonnegative(),
  status: z.enum(['completed', 'cancelled', 'failed']),
  /** A settlement export's totals in paise (count, amount, fees, taxes, CGST, SGST, IGST, subvention, settled). */
  totals: z.record(z.string(), z.number().int()).optional(),
  error: z.string().optional(),
  /** Something the user must know about a completed file (a CSV longer than a spreadsheet shows, cut cells). */
  warning: z.string().optional(),
  seconds: z.number().nonnegative(),
});
export type ExportResult = z.output<typeof exportResult>;
