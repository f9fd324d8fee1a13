/**
 * `export settlements|changes|beneficiaries|payouts|balances --out FILE.xlsx|FILE.csv`: the same files the app writes,
 * from the profile's cache (so they work offline), written under a temporary name and renamed at the end.
 * The format follows the file's extension: XLSX for people, CSV for systems. For a CSV a person will open anyway,
 * `--excel-safe` keeps identifiers as text in a spreadsheet; past a spreadsheet's rows a CSV is split into
 * numbered files unless `--one-file` asks for one (with a warning that spreadsheets will cut it short).
 */
import { extname, resolve } from 'node:path';
import { EXPORT_FORMATS, type CsvExportOptions, type ExportFormat, type ExportRequest } from '../../../shared/exports';
import { exportContext } from '../../export/jobs';
import { runExport } from '../../export/run-export';
import { failedExport, journalExport } from '../../journal/exports';
import type { Command, Values } from '../command';
import type { Context } from '../context';
import { UsageError, progressLine, result, type Io } from '../io';
import { CHANGES_FLAGS, changesOptions, parseChangesFilter } from './settlement-review';
import { cancelOnInterrupt, openProfileCache, parseRange, range } from './settlements';

export function outFile(values: Values): { file: string; format: ExportFormat } {
  if (typeof values.out !== 'string' || values.out === '')
    throw new UsageError('--out FILE.xlsx or FILE.csv is required');
  const format = extname(values.out).slice(1).toLowerCase();
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--out must end in .xlsx or .csv, got "${values.out}"`);
  }
  return { file: resolve(values.out), format: format as ExportFormat };
}

const CSV_OPTIONS = { 'excel-safe': { type: 'boolean' }, 'one-file': { type: 'boolean' } } as const;
const CSV_USAGE = '[--excel-safe] [--one-file]   (XLSX is for people, CSV for systems)';

/** The CSV options asked for; refused for a workbook, where they mean nothing. */
function csvOptions(values: Values, format: ExportFormat): { csv?: CsvExportOptions } {
  const csv: CsvExportOptions = {
    ...(values['excel-safe'] === true ? { excelSafe: true } : {}),
    ...(values['one-file'] === true ? { oneFile: true } : {}),
  };
  if (Object.keys(csv).length === 0) return {};
  if (format !== 'csv') throw new UsageError('--excel-safe and --one-file apply to a CSV (--out FILE.csv) only');
  return { csv };
}

export async function exportTo(ctx: Context, io: Io, request: ExportRequest, file: string): Promise<void> {
  const cache = openProfileCache(ctx, io);
  const { journal } = ctx.core.journals.for(ctx.profile.id);
  const line = progressLine(io);
  const interrupt = cancelOnInterrupt(io, `nothing is left under ${file}`);
  try {
    const done = await runExport(
      {
        request,
        cacheFile: cache.file,
        file,
        context: exportContext(ctx.profile, journal.head().hash, ctx.appVersion, ctx.now()),
      },
      {
        signal: interrupt.signal,
        onProgress: (p) =>
          line.update(
            `${p.phase} ${p.rowsWritten.toLocaleString('en-IN')}${p.rowsTotal === null ? '' : ` of ${p.rowsTotal.toLocaleString('en-IN')}`} rows`,
          ),
      },
    ).catch(async (e: unknown) => {
      // A failed export is journaled as the app journals one; the error still ends the command.
      await journalExport(journal, request, failedExport(request, e instanceof Error ? e.message : String(e)));
      throw e;
    });
    line.done();
    await journalExport(journal, request, done);
    if (done.status !== 'completed') throw new Error('Export cancelled; no file was written.');
    if (done.warning && io.json) io.err(`Warning: ${done.warning}`);
    result(io, done, () =>
      [
        `Wrote ${done.rows.toLocaleString('en-IN')} rows to ${done.files.length > 1 ? done.files.join(', ') : done.file} in ${done.seconds.toFixed(1)} s.`,
        ...(done.warning ? [`Warning: ${done.warning}`] : []),
      ].join('\n'),
    );
  } finally {
    interrupt.dispose();
  }
}

const settlements: Command = {
  words: ['export', 'settlements'],
  usage: `export settlements --from YYYY-MM-DD --to YYYY-MM-DD [--pg CODE] --out FILE.xlsx|FILE.csv ${CSV_USAGE}`,
  options: { ...range, out: { type: 'string' }, ...CSV_OPTIONS },
  async run({ ctx, values, io }) {
    const { from, to, pg } = parseRange(values);
    const { file, format } = outFile(values);
    const filter = { from, to, ...(pg ? { pg } : {}) };
    await exportTo(ctx, io, { kind: 'settlements', format, filter, ...csvOptions(values, format) }, file);
  },
};

const lists: Command[] = (['beneficiaries', 'payouts', 'balances'] as const).map((kind) => ({
  words: ['export', kind],
  usage: `export ${kind} --out FILE.xlsx|FILE.csv ${CSV_USAGE}`,
  options: { out: { type: 'string' }, ...CSV_OPTIONS },
  async run({ ctx, values, io }) {
    const { file, format } = outFile(values);
    await exportTo(ctx, io, { kind, format, ...csvOptions(values, format) }, file);
  },
}));

const changes: Command = {
  words: ['export', 'changes'],
  usage: `export changes ${CHANGES_FLAGS} --out FILE.xlsx|FILE.csv ${CSV_USAGE}`,
  options: { ...changesOptions, out: { type: 'string' }, ...CSV_OPTIONS },
  async run({ ctx, values, io }) {
    const filter = parseChangesFilter(values);
    const { file, format } = outFile(values);
    await exportTo(ctx, io, { kind: 'changes', format, filter, ...csvOptions(values, format) }, file);
  },
};

export const exportCommands = [settlements, changes, ...lists];
