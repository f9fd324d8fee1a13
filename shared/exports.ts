/**
 * Exports for the accountants: what to export, in which format, progress while it is written, and the end.
 * Files are written by the main process from the cache (never from what the renderer holds), to a temporary
 * name renamed at the end, so a cancelled or failed export never leaves a half file under the final name.
 */
import { z } from 'zod';
import { beneficiaryListFilter } from './beneficiaries';
import { payoutListFilter } from './payouts';
import { viewName } from './saved-views';
import { changesFilter } from './settlement-changes';
import { settlementFilter, settlementSort } from './settlement-query';

export const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_KINDS = [
  'settlements',
  'changes',
  'beneficiaries',
  'payouts',
  'balances',
  'journal',
  'payoutCheck',
] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

const format = z.enum(EXPORT_FORMATS);

/**
 * How a CSV writes identifiers (UTRs, ids, account numbers): `plain`, exactly the service's text (for systems);
 * `tab`, after a tab, which every spreadsheet keeps as text but which stays in the cell (a VLOOKUP needs CLEAN());
 * `formula`, as `="…"`, which Excel and LibreOffice show as exactly the text (no tab), but which other systems read
 * as those characters.
 */
export const CSV_ID_FORMS = ['plain', 'tab', 'formula'] as const;
export type CsvIdForm = (typeof CSV_ID_FORMS)[number];

/** Rows a spreadsheet shows below a header row (Excel's and LibreOffice's sheet limit is 1,048,576 rows). */
export const SPREADSHEET_DATA_ROWS = 1_048_575;

/**
 * CSV is for systems, XLSX for people; these options shape a CSV for a person who will open it anyway.
 *  - ids: how identifier columns are written (`CSV_ID_FORMS`), so spreadsheets keep them as text (leading zeros,
 *    16-digit accounts); without it, plain;
 *  - oneFile: past `SPREADSHEET_DATA_ROWS` rows the CSV is split into numbered files, each with the header, unless
 *    this asks for one file (which spreadsheets will truncate; the result carries a warning saying so).
 */
export const csvOptions = z.object({ ids: z.enum(CSV_ID_FORMS).optional(), oneFile: z.boolean().optional() }).strict();
export type CsvExportOptions = z.output<typeof csvOptions>;

const csv = csvOptions.optional();
/** The saved view on screen when the export was asked for: its name goes into the file's name and its Audit sheet. */
const view = viewName.optional();

/**
 * The columns of the on-screen tables a list export can follow the sort of (the table's column ids): a column the
 * export has no value for (a payout's age, worked out on screen) is not here, and the export keeps its own order.
 */
export const LIST_EXPORT_SORTS = {
  beneficiaries: ['name', 'id', 'bank', 'vpa', 'phone', 'email', 'fetched'],
  payouts: ['payout', 'status', 'amount', 'beneficiary', 'method', 'checked'],
} as const;
export type ListSortKind = keyof typeof LIST_EXPORT_SORTS;

const listSort = <K extends ListSortKind>(kind: K) =>
  z
    .object({
      column: z.enum(LIST_EXPORT_SORTS[kind] as unknown as [string, ...string[]], {
        error: `must be one of the columns the ${kind} export can sort by: ${LIST_EXPORT_SORTS[kind].join(', ')}`,
      }),
      direction: z.enum(['asc', 'desc']),
    })
    .strict()
    .optional();
export type ListSort = { column: string; direction: 'asc' | 'desc' };

/** The on-screen sort as a list export takes it, when the export can follow it; else undefined (its own order). */
export function listSortOf(kind: ListSortKind, sort: ListSort | null): ListSort | undefined {
  return sort && (LIST_EXPORT_SORTS[kind] as readonly string[]).includes(sort.column) ? sort : undefined;
}

export const exportRequest = z
  .discriminatedUnion('kind', [
    /** `sort`: the grid's order on screen, which the detail rows follow; without it, filing order. */
    z
      .object({
        kind: z.literal('settlements'),
        format,
        filter: settlementFilter,
        sort: settlementSort.optional(),
        view,
        csv,
      })
      .strict(),
    /** What the syncs changed, as the Changes view shows it: its range, gateway, sync run and kind of change. */
    z.object({ kind: z.literal('changes'), format, filter: changesFilter, csv }).strict(),
    /** `filter`: the list's search and filter on screen; without it, every beneficiary in the cache. */
    z
      .object({
        kind: z.literal('beneficiaries'),
        format,
        filter: beneficiaryListFilter.optional(),
        sort: listSort('beneficiaries'),
        view,
        csv,
      })
      .strict(),
    /** The Recent lookups list as on screen (`filter`: its status and search): each payout's latest check. */
    z
      .object({
        kind: z.literal('payouts'),
        format,
        filter: payoutListFilter.optional(),
        sort: listSort('payouts'),
        view,
        csv,
      })
      .strict(),
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
