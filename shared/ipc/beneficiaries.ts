/**
 * Schemas of the `beneficiaries.*` channels. `create` carries a key the form makes once per submission: a
 * second call with the same key (a double click, a retry after a lost answer) gets the first call's answer
 * or its error, and never creates a second beneficiary.
 */
import { z } from 'zod';
import { orPending } from '../approvals';
import { headerMapping, importOutcome, importReport } from '../beneficiary-import';
import {
  bankDetailChange,
  beneficiaryForm,
  beneficiaryListQuery,
  beneficiaryMatch,
  beneficiaryPage,
  cachedBeneficiary,
  ifscCheck,
  ifscQuery,
  vpaCheck,
  vpaCheckResult,
} from '../beneficiaries';
import type { DomainSchemas } from './contract';

/** A file the user picked, as its name and its bytes in base64 (20 MB at most), and the mapping of unknown headers. */
const importFile = z
  .object({
    fileName: z.string().trim().min(1).max(255),
    content: z.base64().max(28_000_000),
    mapping: headerMapping.optional(),
  })
  .strict();

/** A file written where the user chose; null when the dialog was dismissed. `jobId` is for `exports.reveal`. */
const savedFile = z.object({ file: z.string().nullable(), jobId: z.string().nullable() });

export const beneficiariesChannels = {
  'beneficiaries.list': { input: beneficiaryListQuery, output: beneficiaryPage },
  'beneficiaries.create': {
    input: z.object({ requestKey: z.string().min(8).max(64), beneficiary: beneficiaryForm }).strict(),
    output: orPending(z.object({ beneficiary: cachedBeneficiary, message: z.string() })),
  },
  'beneficiaries.fetch': {
    input: z.object({ id: z.string().trim().min(1, 'must not be empty').max(64) }).strict(),
    output: cachedBeneficiary,
  },
  'beneficiaries.matches': { input: beneficiaryMatch, output: z.array(cachedBeneficiary) },
  'beneficiaries.verifyVpa': { input: vpaCheck, output: vpaCheckResult },
  /** Whether an IFSC is in Razorpay's IFSC list, and its bank's name: offline, from main (the list is 1.1 MB). */
  'beneficiaries.ifsc': { input: ifscQuery, output: ifscCheck },
  /** The bank-detail changes the cache saw for one beneficiary, newest first. */
  'beneficiaries.changes': {
    input: z.object({ id: z.string().trim().min(1).max(64) }).strict(),
    output: z.array(bankDetailChange),
  },
  /** What an import of this file would do, row by row: sends nothing. */
  'beneficiaries.importPreview': { input: importFile, output: importReport },
  /**
   * Creates the file's ready rows one by one (progress as `importProgress` events); the per-row results. On a desk
   * whose policy has each import batch approved, the ready rows become one proposal and nothing is sent.
   */
  'beneficiaries.importRun': { input: importFile, output: orPending(importReport) },
  /** Stops the running import before its next row. */
  'beneficiaries.importCancel': { input: z.undefined(), output: z.object({ cancelled: z.boolean() }) },
  /** Writes the import template where the user chooses; `file` is null when the dialog was dismissed. */
  'beneficiaries.importTemplate': { input: z.undefined(), output: savedFile },
  /** Writes a preview's or a run's per-row results as XLSX where the user chooses. */
  'beneficiaries.importResults': {
    input: z.object({ report: importReport }).strict(),
    output: savedFile,
  },
} satisfies DomainSchemas<'beneficiaries'>;

export const importProgressEvent = z.object({
  profileId: z.string(),
  done: z.number().int(),
  total: z.number().int(),
  row: z.number().int(),
  outcome: importOutcome,
});
