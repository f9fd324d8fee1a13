/**
 * Exports in the journal: each finished export's entry holds what was exported (kind, filter), how much (rows,
 * totals in paise), where (file name and path) and the SHA-256 of the file as written, so `verifyFile` can later
 * say which export produced a file and whether it has changed since.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { ReconReport } from '../../shared/bank-matching';
import type { ExportRequest, ExportResult } from '../../shared/exports';
import { formatCount, formatDateRange } from '../../shared/format';
import type { FileVerdict, JournalEntry } from '../../shared/journal';
import type { Journal } from './journal';

/** SHA-256 (lowercase hex) of a file's bytes, streamed. */
export async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The result of an export that failed before it wrote a file, as the UI and the journal take it. */
export function failedExport(request: ExportRequest, error: string): ExportResult {
  return {
    kind: request.kind,
    format: request.format,
    file: null,
    files: [],
    rows: 0,
    sheets: 0,
    status: 'failed',
    error,
    seconds: 0,
  };
}

/** Journals an export that ended (completed, cancelled or failed); the file is hashed when one was written. */
export async function journalExport(
  journal: Journal,
  request: ExportRequest,
  result: ExportResult,
): Promise<JournalEntry> {
  // Every file written (a split CSV's parts, a CSV's provenance sidecar), each with its SHA-256.
  const files = [];
  if (result.status === 'completed') {
    for (const file of result.files) files.push({ fileName: basename(file), sha256: await fileSha256(file) });
  }
  const sha256 = files[0]?.sha256 ?? null;
  const what =
    request.kind === 'settlements' || request.kind === 'changes'
      ? `${request.kind} ${formatDateRange(request.filter.from, request.filter.to)}`
      : request.kind;
  return journal.append({
    kind: 'export',
    event: `export.${request.kind}`,
    outcome: result.status,
    summary:
      result.status === 'completed'
        ? `Exported ${what} as ${request.format.toUpperCase()}: ${formatCount(result.rows)} rows to ${basename(result.file!)}.`
        : `The export of ${what} ${result.status === 'cancelled' ? 'was cancelled' : 'failed'}; no file was written.`,
    data: {
      kind: request.kind,
      format: request.format,
      filter: request.kind === 'settlements' || request.kind === 'changes' ? request.filter : null,
      rows: result.rows,
      sheets: result.sheets,
      totals: result.totals ?? null,
      file: result.file,
      fileName: result.file ? basename(result.file) : null,
      sha256,
      files,
      error: result.error ?? null,
    },
  });
}

/** Which export of this journal wrote `file`, and whether the file is still exactly what it wrote. */
export async function verifyFile(journal: Journal, file: string): Promise<FileVerdict> {
  const path = resolve(file);
  const sha256 = await fileSha256(path);
  const found = journal.findExport(sha256, basename(path));
  return {
    file: path,
    sha256,
    verdict: found === null ? 'unknown' : found.sameContent ? 'unchanged' : 'changed',
    export: found?.entry ?? null,
  };
}

/** Journals a reconciliation export (its workbook, or its CSV files and sidecar) with each file's SHA-256. */
export async function journalReconExport(
  journal: Journal,
  written: readonly string[],
  report: ReconReport,
  format: 'xlsx' | 'csv',
): Promise<JournalEntry> {
  const files: { fileName: string; sha256: string }[] = [];
  for (const file of written) files.push({ fileName: basename(file), sha256: await fileSha256(file) });
  const names = files.map((f) => f.fileName).join(', ');
  return journal.append({
    kind: 'export',
    event: 'export.reconciliation',
    outcome: 'completed',
    summary: `Exported the reconciliation of ${report.account.name}, ${formatDateRange(report.from, report.to)}, as ${format.toUpperCase()}: ${formatCount(report.batches.length)} batches and ${formatCount(report.credits.length)} credits to ${names}.`,
    data: {
      kind: 'reconciliation',
      format,
      filter: { account: report.account.name, from: report.from, to: report.to },
      rows: report.batches.length + report.credits.length,
      file: written[0]!,
      fileName: files[0]!.fileName,
      sha256: files[0]!.sha256,
      files,
    },
  });
}

/** A Tally import file written: its vouchers, the batches left out, and the file's digest. */
export async function journalTallyExport(
  journal: Journal,
  file: string,
  period: { account: string; from: string; to: string },
  plan: { vouchers: readonly unknown[]; leftOut: readonly unknown[] },
): Promise<JournalEntry> {
  const sha256 = await fileSha256(file);
  const fileName = basename(file);
  return journal.append({
    kind: 'export',
    event: 'export.tally',
    outcome: 'completed',
    summary:
      `Exported ${period.account}'s credits of ${formatDateRange(period.from, period.to)} for Tally: ` +
      `${formatCount(plan.vouchers.length)} vouchers (${formatCount(plan.leftOut.length)} batches left out) to ${fileName}.`,
    data: {
      kind: 'tally',
      format: 'xml',
      filter: period,
      rows: plan.vouchers.length,
      file,
      fileName,
      sha256,
      files: [{ fileName, sha256 }],
    },
  });
}
