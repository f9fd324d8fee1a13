/**
 * The smaller exports: beneficiaries, the Payouts screen's Recent lookups as listed (a line per payout, its latest
 * check; a bulk check's own export has a line per id of the run), balance snapshots, and the audit journal (every entry with its hashes). Identifiers and account numbers are text, so
 * leading zeros survive; money is exact rupees; times are IST date-times.
 */
import { RECENT_LOOKUPS, destinationText, payoutDestination, payoutListMatches } from '../../shared/payouts';
import { formatDateRange } from '../../shared/format';
import type { ExportRequest, LIST_EXPORT_SORTS, ListSort, ListSortKind } from '../../shared/exports';
import type { CacheReader } from '../cache/database';
import {
  idColumn as id,
  istColumn as at,
  istOfIso as ist,
  jsonOrNull as json,
  moneyColumn as money,
  textColumn as text,
} from './column-specs';
import { sortByKey } from '../../shared/table-sort';
import type { ChangesFilter } from '../../shared/settlement-changes';
import { CHANGE_COLUMNS, changeRows } from './settlement-sheets';
import type { ColumnSpec, RowValues } from './xlsx-writer';

export interface ListExport {
  sheet: string;
  /** What the list holds, for the provenance: in words, or from the request (the filter the screen had). */
  view: string | ((request: ExportRequest) => string);
  columns: readonly ColumnSpec[];
  rows(reader: CacheReader, request: ExportRequest): Iterable<RowValues>;
}

/** Per list that can follow the on-screen sort: the table's column id → the export column holding that value. */
export const LIST_SORT_COLUMNS: { [K in ListSortKind]: Record<(typeof LIST_EXPORT_SORTS)[K][number], number> } = {
  beneficiaries: { id: 0, name: 1, bank: 2, vpa: 4, phone: 5, email: 6, fetched: 8 },
  payouts: { payout: 0, checked: 1, status: 3, amount: 5, method: 6, beneficiary: 9 },
};

/** Rows in the order the table on screen shows them (shared/table-sort.ts, as ui/DataTable.tsx sorts). */
export function sortListRows(
  rows: readonly RowValues[],
  column: number,
  direction: ListSort['direction'],
): RowValues[] {
  return sortByKey(
    rows,
    (row) => {
      const cell = row[column];
      const v = cell !== null && typeof cell === 'object' ? cell.value : cell;
      return v ?? null;
    },
    direction,
  );
}

/** A list export's filter on screen (search, status, "bank details changed"), or undefined for the whole list. */
export function listFilterOf(
  request: ExportRequest,
): { search?: string; status?: string; changed?: boolean } | undefined {
  if (request.kind !== 'beneficiaries' && request.kind !== 'payouts') return undefined;
  const f = request.filter;
  if (!f) return undefined;
  const search = f.search?.trim() || undefined;
  const status = 'status' in f ? f.status : undefined;
  const changed = 'changed' in f && f.changed === true ? true : undefined;
  return search || status || changed ? { search, status, changed } : undefined;
}

/** The filter in words, for the Audit sheet: the file says what it holds. */
export function listFilterText(request: ExportRequest): string | null {
  const f = listFilterOf(request);
  if (!f) return null;
  return [
    f.status && `latest check's status ${f.status}`,
    f.changed && 'bank details changed',
    f.search && `matching “${f.search}”`,
  ]
    .filter(Boolean)
    .join('; ');
}

export const LIST_EXPORTS = {
  beneficiaries: {
    sheet: 'Beneficiaries',
    view: 'every beneficiary in the cache (added here or fetched by id)',
    columns: [
      id('Beneficiary id', 20),
      text('Name', 28),
      id('Account number', 20),
      text('IFSC', 13),
      text('UPI address', 26),
      id('Phone', 13),
      text('Email', 26),
      text('Address', 36),
      at('Fetched at'),
      text('Other fields (JSON)', 30),
    ],
    *rows(reader, request) {
      for (const b of reader.beneficiaries.every(listFilterOf(request))) {
        yield [
          b.beneficiary_id,
          b.name,
          b.account_number,
          b.ifsc,
          b.vpa,
          b.phone,
          b.email,
          b.address,
          ist(b.fetchedAt),
          json(b.extra),
        ];
      }
    },
  },
  payouts: {
    sheet: 'Payout lookups',
    // The Recent lookups list as the screen lists it: bulk-checked ids beyond it, and the earlier checks of each
    // payout (its history, on screen only when opened), are not what the desk was looking at.
    view: `the Payouts screen's Recent lookups: the latest check of each of the ${RECENT_LOOKUPS} most recently checked payouts, a row each`,
    columns: [
      id('Payout id', 22),
      at('Checked at'),
      text('Check', 9),
      text('Transfer status', 14),
      id('UTR', 22),
      money('Amount'),
      text('Method'),
      text('Fund source'),
      at('Processed at'),
      text('Beneficiary', 24),
      id('Beneficiary account or UPI', 30),
      text('Gateway error code'),
      text('Gateway error', 36),
      text('Check failed because', 36),
    ],
    *rows(reader, request) {
      const filter = listFilterOf(request) ?? {};
      for (const l of reader.payouts.recent(RECENT_LOOKUPS)) {
        if (!payoutListMatches(l, filter)) continue;
        yield [
          l.payoutId,
          ist(l.lookedUpAt),
          l.mode,
          l.transferStatus,
          l.utNo,
          l.amount,
          l.payout?.method ?? null,
          l.payout?.fund_source ?? null,
          l.processedAt,
          l.payout?.beneficiary?.name ?? null,
          l.payout ? destinationText(payoutDestination(l.payout)) : null,
          l.gatewayErrorCode,
          l.gatewayErrorMessage ?? l.payout?.error ?? null,
          l.error,
        ];
      }
    },
  },
  payoutCheck: {
    sheet: 'Payout check',
    view: 'one bulk payout check: each id given, how its check ended, and what it answered',
    columns: [
      id('Payout id', 22),
      text('Outcome', 10),
      text('Check', 9),
      at('Checked at'),
      text('Transfer status', 14),
      id('UTR', 22),
      money('Amount'),
      text('Method'),
      at('First seen'),
      text('Beneficiary', 24),
      id('Beneficiary account or UPI', 30),
      text('Gateway error', 36),
      text('Not answered because', 36),
    ],
    *rows(reader, request) {
      const run = request.kind === 'payoutCheck' ? reader.payoutChecks.get(request.runId) : null;
      if (!run) throw new Error('That payout check is not in the cache.');
      for (const item of run.items) {
        const l = item.lookup;
        yield [
          item.payoutId,
          item.outcome,
          run.mode,
          l ? ist(l.lookedUpAt) : null,
          l?.transferStatus ?? null,
          l?.utNo ?? null,
          l?.amount ?? null,
          l?.payout?.method ?? null,
          l?.firstSeenAt ? ist(l.firstSeenAt) : null,
          l?.payout?.beneficiary?.name ?? null,
          l?.payout ? destinationText(payoutDestination(l.payout)) : null,
          l?.gatewayErrorMessage ?? (l?.payout?.error || null),
          item.error,
        ];
      }
    },
  },
  balances: {
    sheet: 'Balance snapshots',
    view: 'every balance snapshot in the cache',
    columns: [
      text('Gateway'),
      id('Account number', 20),
      at('Taken at'),
      text('From', 9),
      money('Available'),
      money('Account balance'),
      money('Minimum balance'),
      money('Hold'),
      money('Overdraft'),
    ],
    *rows(reader) {
      for (const s of reader.accounts.everySnapshot()) {
        yield [
          s.pg,
          s.accountNumber,
          ist(s.takenAt),
          s.source,
          s.availableBalance,
          s.accountBalance,
          s.minimumBalance,
          s.holdFund,
          s.overdraft,
        ];
      }
    },
  },
  changes: {
    sheet: 'Changes',
    view: (request) =>
      request.kind === 'changes' ? `what the syncs changed: ${describeChangesFilter(request.filter)}` : '',
    columns: CHANGE_COLUMNS,
    *rows(reader, request) {
      if (request.kind !== 'changes') return;
      const { from, to, pg, runId, kind } = request.filter;
      const query = { from, to, ...(pg ? { pg } : {}), ...(runId ? { runId } : {}), ...(kind ? { kind } : {}) };
      for (const c of reader.changes.all(query)) yield* changeRows(c);
    },
  },
  journal: {
    sheet: 'Journal',
    view: 'every entry of the audit journal, oldest first, with its hashes',
    columns: [
      { header: 'Seq', type: 'integer' },
      at('Time'),
      text('Kind', 11),
      text('Event', 26),
      text('Outcome', 11),
      { header: 'Refers to', type: 'integer' },
      text('Request id', 22),
      text('Summary', 60),
      text('Data (JSON)', 40),
      text('App version', 11),
      text('OS user', 14),
      text('Previous hash', 66),
      text('Hash', 66),
    ],
    *rows(reader) {
      for (const e of reader.journal.every()) {
        yield [
          e.seq,
          e.atIst,
          e.kind,
          e.event,
          e.outcome,
          e.refersTo,
          e.requestId,
          e.summary,
          JSON.stringify(e.data),
          e.appVersion,
          e.osUser,
          e.prevHash,
          e.hash,
        ];
      }
    },
  },
} satisfies Record<'beneficiaries' | 'payouts' | 'payoutCheck' | 'balances' | 'journal' | 'changes', ListExport>;

/** The Changes view's filter in words, for the Audit sheet and the sidecar. */
export function describeChangesFilter(f: ChangesFilter): string {
  return [
    `${formatDateRange(f.from, f.to)} (settlement dates, IST)`,
    f.pg ? `gateway ${f.pg}` : 'every gateway',
    f.runId ? `sync run ${f.runId} only` : 'every sync run',
    f.kind ? `${f.kind} records only` : 'every kind of change',
  ].join(', ');
}
