/**
 * `export settlements|changes|beneficiaries|payouts|balances --out FILE.xlsx|FILE.csv`: the same files the app writes,
 * from the profile's cache (so they work offline), written under a temporary name and renamed at the end.
 * The format follows the file's extension: XLSX for people, CSV for systems. For a CSV a person will open anyway,
 * `--excel-safe` keeps identifiers as text in a spreadsheet; past a spreadsheet's rows a CSV is split into
 * numbered files unless `--one-file` asks for one (with a warning that spreadsheets will cut it short).
 */
import { extname, resolve } from 'node:path';
import {
  CSV_ID_FORMS,
  EXPORT_FORMATS,
  type CsvExportOptions,
  type CsvIdForm,
  type ExportFormat,
  type ExportRequest,
} from '../../../shared/exports';
import { exportContext } from '../../export/jobs';
import { writeReconciliation } from '../../export/reconciliation-sheets';
import { runExport } from '../../export/run-export';
import { failedExport, journalExport, journalReconExport } from '../../journal/exports';
import { formatMoney, sumMinor } from '../../../shared/money';
import type { Command, Values } from '../command';
import type { Context } from '../context';
import { UsageError, progressLine, result, type Io } from '../io';
import { CHANGES_FLAGS, changesOptions, parseChangesFilter } from './settlement-review';
import { cancelOnInterrupt, openProfileCache, parseRange, range } from './settlements';
import { asInput } from './recon';

/** The file and its format: `--format` when given, else the file's extension (.xlsx or .csv). */
export function outFile(values: Values): { file: string; format: ExportFormat } {
  if (typeof values.out !== 'string' || values.out === '')
    throw new UsageError('--out FILE.xlsx or FILE.csv is required');
  const given = values.format;
  if (given !== undefined) {
    if (typeof given !== 'string' || !(EXPORT_FORMATS as readonly string[]).includes(given)) {
      throw new UsageError(`--format must be xlsx or csv, got "${String(given)}"`);
    }
    return { file: resolve(values.out), format: given as ExportFormat };
  }
  const format = extname(values.out).slice(1).toLowerCase();
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--out must end in .xlsx or .csv (or say --format xlsx|csv), got "${values.out}"`);
  }
  return { file: resolve(values.out), format: format as ExportFormat };
}

const CSV_OPTIONS = {
  'csv-ids': { type: 'string' },
  'excel-safe': { type: 'boolean' },
  'one-file': { type: 'boolean' },
} as const;
const CSV_USAGE = `[--csv-ids ${CSV_ID_FORMS.join('|')}] [--one-file]   (XLSX is for people, CSV for systems)`;

/** `--csv-ids`, or `--excel-safe` (scripts written before the choice: the tab); undefined for neither. */
function csvIds(values: Values): CsvIdForm | undefined {
  const given = values['csv-ids'];
  if (given !== undefined && !(CSV_ID_FORMS as readonly unknown[]).includes(given)) {
    throw new UsageError(
      `--csv-ids must be plain (for systems), tab (any spreadsheet; a VLOOKUP needs CLEAN()) or formula (="…", for Excel), got "${String(given)}"`,
    );
  }
  if (given !== undefined && values['excel-safe'] === true && given !== 'tab') {
    throw new UsageError('--excel-safe is --csv-ids tab; give one of them');
  }
  return (given as CsvIdForm | undefined) ?? (values['excel-safe'] === true ? 'tab' : undefined);
}

/** The CSV options asked for; refused for a workbook, where they mean nothing. */
function csvOptions(values: Values, format: ExportFormat): { csv?: CsvExportOptions } {
  const ids = csvIds(values);
  const csv: CsvExportOptions = {
    ...(ids === undefined ? {} : { ids }),
    ...(values['one-file'] === true ? { oneFile: true } : {}),
  };
  if (Object.keys(csv).length === 0) return {};
  if (format !== 'csv') {
    throw new UsageError('--csv-ids, --excel-safe and --one-file apply to a CSV (--out FILE.csv) only');
  }
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

const payoutChecks: Command = {
  words: ['export', 'payout-checks'],
  usage: `export payout-checks --run ID --out FILE.xlsx|FILE.csv [--format xlsx|csv] ${CSV_USAGE}`,
  options: { run: { type: 'string' }, out: { type: 'string' }, format: { type: 'string' }, ...CSV_OPTIONS },
  async run({ ctx, values, io }) {
    const run = values.run;
    if (typeof run !== 'string' || !/^[1-9]\d{0,14}$/.test(run)) {
      throw new UsageError(
        '--run must be the number of a bulk payout check (the runId that payouts check --json prints)',
      );
    }
    const { file, format } = outFile(values);
    await exportTo(ctx, io, { kind: 'payoutCheck', runId: Number(run), format, ...csvOptions(values, format) }, file);
  },
};

const reconciliation: Command = {
  words: ['export', 'reconciliation'],
  usage: `export reconciliation --from YYYY-MM-DD --to YYYY-MM-DD [--account NAME] --out FILE.xlsx|FILE.csv [--format xlsx|csv] [--csv-ids ${CSV_ID_FORMS.join('|')}]   (the screen's workbook; a CSV is FILE-batches.csv and FILE-credits.csv)`,
  options: {
    ...range,
    account: { type: 'string' },
    out: { type: 'string' },
    format: { type: 'string' },
    'csv-ids': CSV_OPTIONS['csv-ids'],
  },
  async run({ ctx, values, io }) {
    const { from, to } = parseRange(values);
    const { file, format } = outFile(values);
    const { csv } = csvOptions(values, format);
    openProfileCache(ctx, io);
    const { reconciliation: recon, journals } = ctx.core;
    const { journal } = journals.for(ctx.profile.id);
    const r = await asInput(async () => {
      const account = await recon.defaultAccount(ctx.profile.id, values.account as string | undefined);
      return recon.report(ctx.profile.id, { account, from, to });
    });
    const context = exportContext(ctx.profile, journal.head().hash, ctx.appVersion, ctx.now());
    const files = await writeReconciliation(file, new Date(ctx.now()), r, { format, context, ids: csv?.ids });
    await journalReconExport(journal, files, r, format);
    const summary = {
      account: r.account.name,
      from,
      to,
      format,
      files,
      batches: r.batches.length,
      credits: r.credits.length,
      settled: sumMinor(r.batches.map((b) => b.settled)),
      credited: sumMinor(r.credits.map((c) => c.amount)),
      batchTotals: r.batchTotals,
      creditTotals: r.creditTotals,
    };
    result(
      io,
      summary,
      () =>
        `Wrote the reconciliation of ${summary.account}, ${from} to ${to}: ` +
        `${summary.batches.toLocaleString('en-IN')} batches (${formatMoney(summary.settled)} settled) and ` +
        `${summary.credits.toLocaleString('en-IN')} credits (${formatMoney(summary.credited)}) to ${files.join(', ')}.`,
    );
  },
};

export const exportCommands = [settlements, changes, ...lists, payoutChecks, reconciliation];
