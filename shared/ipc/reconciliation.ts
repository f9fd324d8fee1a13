/**
 * Schemas of the `recon.*` channels: settlement batches and their records, bank statements imported into bank
 * accounts, matching, manual match and unmatch, the report and its export. All of it reads and writes the cache only.
 */
import { z } from 'zod';
import { BATCH_STATES, CREDIT_STATES, reconSettings, reconSettingsChange } from '../bank-matching';
import { columnMapping } from '../bank-statement';
import { EXPORT_FORMATS, csvOptions } from '../exports';
import { cacheDate, filterText } from '../settlement-query';
import { tallyLedgers } from '../tally';
import type { DomainSchemas } from './contract';

const paise = z.number().int();
const count = z.number().int().nonnegative();
const accountName = z.string().trim().min(1).max(100);

export const batchKey = z
  .object({
    date: cacheDate,
    pg: z.string().min(1).max(100),
    utr: z.string().max(100),
    settlementDate: z.string().min(1).max(40),
  })
  .strict();

export const batchRow = batchKey.extend({
  records: count,
  amount: paise,
  fees: paise,
  taxes: paise,
  subvention: paise,
  settled: paise,
  exceptions: count,
  /** Signed parts of `amount` (sales are the rest); null on a desk's copy published before they were kept. */
  refunds: paise.nullable(),
  chargebacks: paise.nullable(),
});

const batchRecord = z.object({
  id: z.number(),
  pgTransactionId: z.string(),
  orderId: z.string().nullable(),
  paymentMode: z.string(),
  amount: paise,
  fee: paise,
  tax: paise,
  subvention: paise,
  settled: paise,
  exceptionFlags: z.number().int(),
});

const stateTotal = z.object({ state: z.string(), label: z.string(), count, amount: paise, difference: paise });
const how = z.enum(['utr', 'amount', 'split', 'manual']);

export const reconReport = z.object({
  account: z.object({ id: z.number().int(), name: z.string() }),
  from: cacheDate,
  to: cacheDate,
  today: cacheDate,
  settings: reconSettings,
  batchTotals: z.array(stateTotal),
  creditTotals: z.array(stateTotal),
  batches: z.array(
    batchKey.extend({
      records: count,
      settled: paise,
      exceptions: count,
      state: z.enum(BATCH_STATES),
      how: how.nullable(),
      matchId: z.number().int().nullable(),
      difference: paise.nullable(),
      lineIds: z.array(z.number().int()),
      note: z.string().nullable(),
      reason: z.string().nullable(),
      lateDays: count.nullable(),
    }),
  ),
  credits: z.array(
    z.object({
      id: z.number().int(),
      date: cacheDate,
      valueDate: cacheDate.nullable(),
      narration: z.string(),
      reference: z.string().nullable(),
      amount: paise,
      utr: z.string().nullable(),
      rail: z.string().nullable(),
      state: z.enum(CREDIT_STATES),
      matchId: z.number().int().nullable(),
      batch: batchKey.nullable(),
      lateDays: count.nullable(),
    }),
  ),
  late: z.object({ count, amount: paise }),
  statements: z.array(
    z.object({
      fileName: z.string(),
      layout: z.string(),
      importedAt: z.string(),
      from: cacheDate,
      to: cacheDate,
      holds: z.boolean().nullable(),
      sentence: z.string(),
    }),
  ),
});

/** A PDF statement's password, for one read: the main process hands it to the PDF reader and keeps it nowhere. */
const statementPassword = z.string().min(1).max(200);

const statedFigure = paise.nullable();
const importResult = z.object({
  account: z.object({ id: z.number().int(), name: z.string() }),
  fileName: z.string(),
  kind: z.enum(['xlsx', 'xls', 'csv', 'tsv', 'mt940', 'pdf']),
  layout: z.string(),
  mapping: z.record(z.string(), z.string()),
  lines: count,
  added: count,
  duplicates: count,
  credits: count,
  debits: count,
  from: cacheDate.nullable(),
  to: cacheDate.nullable(),
  bad: z.array(z.object({ rowNumber: z.number().int(), reason: z.string() })),
  summaryRows: z.array(z.number().int()),
  proof: z.object({
    stated: z.object({
      opening: statedFigure,
      closing: statedFigure,
      debits: statedFigure,
      credits: statedFigure,
      debitCount: count.nullable(),
      creditCount: count.nullable(),
    }),
    read: z.object({ credits: paise, debits: paise, creditCount: count, debitCount: count }),
    holds: z.boolean().nullable(),
    problems: z.array(z.string()),
    sentence: z.string(),
  }),
});

const withAccount = z.object({ account: accountName, from: cacheDate, to: cacheDate }).strict();
const note = z.string().trim().min(1, 'say why').max(500);

export const reconChannels = {
  'recon.batches': {
    input: z
      .object({ from: cacheDate, to: cacheDate, pg: filterText.optional() })
      .strict()
      .refine((r) => r.from <= r.to, { message: 'must not be before from', path: ['to'] }),
    output: z.object({ batches: z.array(batchRow) }),
  },
  'recon.batchRecords': {
    input: z
      .object({ batch: batchKey, offset: z.number().int().nonnegative(), limit: z.number().int().min(1).max(1000) })
      .strict(),
    output: z.object({ records: z.array(batchRecord) }),
  },
  'recon.accounts': {
    input: z.undefined(),
    output: z.object({
      accounts: z.array(z.object({ id: z.number().int(), name: z.string(), mapping: columnMapping.nullable() })),
      settings: reconSettings,
      tallyLedgers,
    }),
  },
  /** A statement file's first rows and the mapping an import would use (saved for the account, or recognised). */
  'recon.previewStatement': {
    input: z
      .object({
        fileName: z.string().trim().min(1).max(255),
        content: z.base64().max(28_000_000),
        account: accountName,
        password: statementPassword.optional(),
      })
      .strict(),
    output: z.object({
      fileName: z.string(),
      rows: z.array(z.object({ n: z.number().int().positive(), cells: z.array(z.string()) })),
      header: z
        .object({ index: z.number().int().nonnegative(), layout: z.string(), mapping: columnMapping })
        .nullable(),
    }),
  },
  /** A statement file (base64) into a bank account, made on first use; `mapping` for a layout not recognised. */
  'recon.importStatement': {
    input: z
      .object({
        fileName: z.string().trim().min(1).max(255),
        content: z.base64().max(28_000_000),
        account: accountName,
        mapping: columnMapping.optional(),
        password: statementPassword.optional(),
      })
      .strict(),
    output: importResult,
  },
  'recon.match': { input: withAccount, output: reconReport },
  'recon.report': { input: withAccount, output: reconReport },
  'recon.matchByHand': {
    input: z
      .object({
        account: accountName,
        batch: batchKey,
        lineIds: z.array(z.number().int()).min(1).max(20),
        note,
        /** Why the credits differ from the batch, when they do; kept with the match and in its journal entry. */
        reason: note.optional(),
      })
      .strict(),
    output: z.object({ matchId: z.number().int() }),
  },
  'recon.unmatch': {
    input: z.object({ account: accountName, matchId: z.number().int(), note }).strict(),
    output: z.object({ unmatched: z.literal(true) }),
  },
  /** The settings named are changed; the others stay as they are. */
  'recon.saveSettings': { input: reconSettingsChange, output: reconSettings },
  /**
   * The report as XLSX (the default) or CSV where the user chooses; `file` and `jobId` are null when the dialog was
   * dismissed. `jobId` is for "Show in folder" (`exports.reveal`); `files` are every file written.
   */
  'recon.export': {
    input: withAccount
      .extend({ format: z.enum(EXPORT_FORMATS).optional(), csv: csvOptions.pick({ ids: true }).optional() })
      .refine((r) => r.format === 'csv' || r.csv === undefined, {
        message: 'CSV options apply to CSV exports only',
        path: ['csv'],
      }),
    output: z.object({ file: z.string().nullable(), files: z.array(z.string()), jobId: z.string().nullable() }),
  },
  /** The profile's Tally ledger names, replaced as a whole (a name left out is cleared). */
  'recon.saveTallyLedgers': { input: tallyLedgers, output: tallyLedgers },
  /**
   * The period's credits as Tally import XML where the user chooses (`file` null when the dialog was dismissed):
   * how many vouchers it holds and each batch left out with its reason. Refused naming any ledger without a name.
   */
  'recon.exportTally': {
    input: withAccount,
    output: z.object({
      file: z.string().nullable(),
      jobId: z.string().nullable(),
      vouchers: count,
      leftOut: z.array(z.object({ batch: batchKey, reason: z.string() })),
    }),
  },
} satisfies DomainSchemas<'recon'>;
