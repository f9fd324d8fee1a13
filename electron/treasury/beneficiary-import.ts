/**
 * Bulk beneficiary import for the UI and the CLI: a sheet (electron/import/sheet-reader.ts) checked row by row with
 * the add form's schema, duplicates within the file and against the cache marked, then created one row at a time
 * through the same create path as the form (journal attempt and outcome, outcome unknown kept, never resent).
 *
 * Each row's key is (file digest, row). Its record in the cache is written as "sent" before its request leaves, so
 * a crash, a cancel or a rerun of the same file never sends a row twice: a row created before is reported with its
 * id; a row whose answer was lost stays "outcome unknown — check status" until the journal says what became of it
 * (a status check of its attempt, made on the Journal screen, settles it). A row the service refused created
 * nothing and is sent again by a rerun. A payee created by an earlier run of a different file is in the cache and
 * is reported as already a beneficiary.
 *
 * On a desk whose policy has each import batch approved, a run sends nothing: its ready rows become one proposal,
 * each row exactly as it will be sent, and the approving console sends them through `sendBatch` — the same rows,
 * keys and records as a run, on that console's cache and journal.
 */
import type { BeneficiaryImportRequest, PendingApproval } from '../../shared/approvals';
import type { BeneficiaryFields } from '../../shared/beneficiaries';
import {
  checkRows,
  countOutcomes,
  describeProblems,
  mapColumns,
  type HeaderMapping,
  type CheckedRow,
  type ImportReport,
  type ImportRowResult,
} from '../../shared/beneficiary-import';
import { ApiError } from '../api/errors';
import type { Cache } from '../cache/database';
import { importKey, type ImportRowRecord } from '../cache/beneficiary-imports';
import type { Sheet } from '../import/sheet-reader';
import type { Journals } from '../journal/registry';
import { createdNothing } from '../journal/keyed-actions';
import type { BeneficiaryService } from './beneficiaries';
import { ifscDirectory } from './ifsc';
import { asClause, asSentence } from '../../shared/messages';

export class ImportRefusedError extends Error {
  override name = 'ImportRefusedError';
  readonly code = 'IMPORT_REFUSED';
}

/** Failures that every later row would meet too: the run stops and the rest are reported as not sent. */
const SERVICE_STOPPED = new Set(['network', 'tls', 'auth', 'rate_limited', 'unavailable']);

export interface ImportProgress {
  done: number;
  total: number;
  last: ImportRowResult;
}

/** A row with what would happen to it now, its fields as they would be sent, and its key. */
interface PlannedRow {
  result: ImportRowResult;
  fields: BeneficiaryFields | null;
  key: string;
}

export function createBeneficiaryImportService(deps: {
  beneficiaries: BeneficiaryService;
  cacheFor: (profileId: string) => Cache;
  journals: Journals;
  /**
   * The proposal a desk's policy makes of these rows instead of sending them, or null to send them now. Asked
   * before any row is sent, so an import never goes around an approval.
   */
  propose?: (profileId: string, request: BeneficiaryImportRequest) => Promise<PendingApproval | null>;
}) {
  /** An earlier run's record of the row, settled from the journal when its answer was lost. */
  function earlier(profileId: string, key: string): ImportRowRecord | null {
    const cache = deps.cacheFor(profileId);
    const record = cache.beneficiaryImports.get(key);
    if (!record || record.outcome === 'created' || record.outcome === 'refused') return record;
    const { journal } = deps.journals.for(profileId);
    const settled = journal
      .followUps(record.attemptSeq)
      .findLast((e) => e.outcome === 'succeeded' && typeof e.data['beneficiaryId'] === 'string');
    if (!settled) return record;
    const id = settled.data['beneficiaryId'] as string;
    cache.beneficiaryImports.settle(key, 'created', id, null);
    return { ...record, outcome: 'created', beneficiaryId: id };
  }

  /** Each checked row with what would happen to it now, and what Razorpay's IFSC list says of its IFSC. */
  async function classify(profileId: string, digest: string, checked: readonly CheckedRow[]): Promise<PlannedRow[]> {
    const cache = deps.cacheFor(profileId);
    const ifscs = checked.some((c) => c.values.ifsc !== '') ? await ifscDirectory() : null;
    return checked.map((c) => {
      const key = importKey(digest, c.row);
      const ifsc = ifscs && c.values.ifsc ? ifscs.check(c.values.ifsc) : null;
      const base = {
        row: c.row,
        name: c.values.name,
        account_number: c.values.account_number,
        ifsc: c.values.ifsc,
        vpa: c.values.vpa,
        bank: ifsc?.bank ?? null,
        ifscWarning: ifsc?.warning ?? null,
        beneficiaryId: null,
        reason: null,
      };
      const before = earlier(profileId, key);
      const result = ((): ImportRowResult => {
        if (before?.outcome === 'created') {
          return { ...base, outcome: 'already_created', beneficiaryId: before.beneficiaryId, reason: null };
        }
        if (before && before.outcome !== 'refused') {
          return {
            ...base,
            outcome: 'unknown',
            reason:
              `An earlier run sent this row and its answer was lost (journal entry ${before.attemptSeq}): ` +
              'outcome unknown — check status on the Journal screen before importing it again.',
          };
        }
        if (!c.fields) return { ...base, outcome: 'invalid', reason: describeProblems(c.problems) };
        if (c.duplicateOfRow !== null) {
          return { ...base, outcome: 'duplicate', reason: `The same payee as row ${c.duplicateOfRow}.` };
        }
        const match = cache.beneficiaries.matches(c.fields)[0];
        if (match) {
          return {
            ...base,
            outcome: 'exists',
            beneficiaryId: match.beneficiary_id,
            reason: `Already a beneficiary: ${match.name} (${match.beneficiary_id}).`,
          };
        }
        return { ...base, outcome: 'ready' };
      })();
      return { result, fields: c.fields, key };
    });
  }

  async function plan(profileId: string, sheet: Sheet, mapping: HeaderMapping) {
    const columns = mapColumns(sheet.headers, mapping);
    const checked = columns.problems.length ? [] : checkRows(columns, sheet.rows, sheet.rowNumbers);
    const rows = await classify(profileId, sheet.digest, checked);
    const report = (results: ImportRowResult[]): ImportReport => ({
      fileName: sheet.fileName,
      digest: sheet.digest,
      headers: sheet.headers,
      columns: columns.fields,
      unknownHeaders: columns.unknown,
      problems: columns.problems,
      rows: results,
      counts: countOutcomes(results),
    });
    return { rows, report };
  }

  /** A proposal's rows, classified on this console as a run of its file would be. */
  function planBatch(profileId: string, request: BeneficiaryImportRequest): Promise<PlannedRow[]> {
    return classify(
      profileId,
      request.digest,
      request.rows.map(({ row, beneficiary: b }) => ({
        row,
        values: {
          name: b.name,
          account_number: b.account_number ?? '',
          ifsc: b.ifsc ?? '',
          vpa: b.vpa ?? '',
          phone: b.phone ?? '',
          email: b.email ?? '',
          address: b.address ?? '',
        },
        fields: b,
        problems: [],
        duplicateOfRow: null,
      })),
    );
  }

  const batchReport = (request: BeneficiaryImportRequest, results: ImportRowResult[]): ImportReport => ({
    fileName: request.fileName,
    digest: request.digest,
    headers: [],
    columns: [],
    unknownHeaders: [],
    problems: [],
    rows: results,
    counts: countOutcomes(results),
  });

  /** Creates the ready rows one at a time; `signal` stops before the next row is sent. */
  async function send(
    profileId: string,
    digest: string,
    rows: readonly PlannedRow[],
    options: { signal?: AbortSignal; onProgress?: (p: ImportProgress) => void },
  ): Promise<ImportRowResult[]> {
    const imports = deps.cacheFor(profileId).beneficiaryImports;
    const results: ImportRowResult[] = [];
    let stopped: string | null = null;
    for (const { result, fields, key } of rows) {
      const done = (r: ImportRowResult) => {
        results.push(r);
        options.onProgress?.({ done: results.length, total: rows.length, last: r });
      };
      if (result.outcome !== 'ready' || !fields) {
        done(result);
        continue;
      }
      if (stopped !== null || options.signal?.aborted) {
        done({ ...result, outcome: 'not_sent', reason: stopped ?? 'The import was cancelled before this row.' });
        continue;
      }
      try {
        const { beneficiary } = await deps.beneficiaries.create(profileId, key, fields, (seq) =>
          imports.markSent(digest, result.row, seq),
        );
        imports.settle(key, 'created', beneficiary.beneficiary_id, null);
        done({ ...result, outcome: 'created', beneficiaryId: beneficiary.beneficiary_id });
      } catch (e) {
        const reason = e instanceof ApiError ? e.userMessage : e instanceof Error ? e.message : String(e);
        if (e instanceof ApiError && createdNothing(e)) {
          imports.settle(key, 'refused', null, reason);
          done({ ...result, outcome: 'refused', reason });
          if (SERVICE_STOPPED.has(e.kind))
            stopped = `Not sent: an earlier row stopped the import (${asClause(reason)}).`;
        } else {
          // A failure of our own (a keychain, a disk) may come after the answer: never taken as "nothing created".
          imports.settle(key, 'unknown', null, reason);
          done({ ...result, outcome: 'unknown', reason: `Outcome unknown — check status. ${asSentence(reason)}` });
          if (!(e instanceof ApiError)) stopped = `Not sent: an earlier row stopped the import (${asClause(reason)}).`;
        }
      }
    }
    return results;
  }

  return {
    /** What an import of this sheet would do, row by row; sends nothing, works offline. */
    async preview(profileId: string, sheet: Sheet, mapping: HeaderMapping = {}): Promise<ImportReport> {
      const { rows, report } = await plan(profileId, sheet, mapping);
      return report(rows.map((r) => r.result));
    },

    /** Creates the ready rows one at a time, or proposes them as one batch where the desk's policy asks. */
    async run(
      profileId: string,
      sheet: Sheet,
      mapping: HeaderMapping = {},
      options: { signal?: AbortSignal; onProgress?: (p: ImportProgress) => void } = {},
    ): Promise<ImportReport | PendingApproval> {
      const { rows, report } = await plan(profileId, sheet, mapping);
      const first = report([]);
      if (first.problems.length) throw new ImportRefusedError(first.problems.join(' '));
      const ready = rows.flatMap((r) =>
        r.result.outcome === 'ready' && r.fields ? [{ row: r.result.row, beneficiary: r.fields }] : [],
      );
      if (ready.length > 0 && deps.propose) {
        const request = { action: 'beneficiary.import' as const, fileName: sheet.fileName, digest: sheet.digest };
        const pending = await deps.propose(profileId, { ...request, rows: ready });
        if (pending) return pending;
      }
      return report(await send(profileId, sheet.digest, rows, options));
    },

    /** Sends an approved batch's rows, as a run of its file would, each row keyed so none is created twice. */
    async sendBatch(profileId: string, request: BeneficiaryImportRequest): Promise<ImportReport> {
      return batchReport(request, await send(profileId, request.digest, await planBatch(profileId, request), {}));
    },

    /**
     * What became of a batch this console sent, from its records and journal, sending nothing: a row never sent
     * (the console stopped first) is reported as not sent.
     */
    async settleBatch(profileId: string, request: BeneficiaryImportRequest): Promise<ImportReport> {
      const rows = await planBatch(profileId, request);
      return batchReport(
        request,
        rows.map(({ result }) =>
          result.outcome === 'ready'
            ? { ...result, outcome: 'not_sent', reason: 'Not sent: the approving console stopped before this row.' }
            : result,
        ),
      );
    },
  };
}
export type BeneficiaryImportService = ReturnType<typeof createBeneficiaryImportService>;
