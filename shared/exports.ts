/**
 * Exports for the accountants: what to export, in which format, progress while it is written, and the end.
 * Files are written by the main process from the cache (never from what the renderer holds), to a temporary
 * name renamed at the end, so a cancelled or failed export never leaves a half file under the final name.
 */
import { z } from 'zod';
import { settlementFilter } from './settlement-query';

export const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_KINDS = ['settlements', 'beneficiaries', 'payouts', 'balances', 'journal'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

const format = z.enum(EXPORT_FORMATS);

export const exportRequest = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('settlements'), format, filter: settlementFilter }).strict(),
  z.object({ kind: z.literal('beneficiaries'), format }).strict(),
  z.object({ kind: z.literal('payouts'), format }).strict(),
  z.object({ kind: z.literal('balances'), format }).strict(),
  /** The profile's whole audit journal, oldest first, with each entry's hashes. */
  z.object({ kind: z.literal('journal'), format }).strict(),
]);
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
  /** Where the file is, when it was written. */
  file: z.string().nullable(),
  rows: z.number().int().nonnegative(),
  /** Data sheets the settlement detail took (more than one past Excel's row limit). */
  sheets: z.number().int().nonnegative(),
  status: z.enum(['completed', 'cancelled', 'failed']),
  /** A settlement export's totals in paise (count, amount, fees, taxes, CGST, SGST, IGST, subvention, settled). */
  totals: z.record(z.string(), z.number().int()).optional(),
  error: z.string().optional(),
  seconds: z.number().nonnegative(),
});
export type ExportResult = z.output<typeof exportResult>;
