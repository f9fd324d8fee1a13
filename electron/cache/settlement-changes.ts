/**
 * What each sync changed, per record: new (on a date the cache held before), changed (each field old → new),
 * vanished (no longer returned) and returned (back after vanishing). The ingest writes them in the page's own
 * transaction (settlement-ingest.ts), so a crash never leaves a change without its record or the other way round.
 * A date's first sync is not a change: nothing was there to compare with, and a million "new" rows a day would
 * double the ingest.
 */
import { SETTLEMENT_MONEY_FIELDS } from '../../shared/reconciliation';
import type { Database } from 'better-sqlite3';
import {
  changesPage,
  changesQuery,
  type ChangesPage,
  type ChangesQuery,
  type ChangesSummary,
  type FieldChange,
  type FieldChangeMeaning,
} from '../../shared/settlement-changes';
import { FIELD_COLUMNS, type FieldValues, type StoredRow } from './settlement-rows';
import { prepareAll } from './statements';

const STATUS_FIELDS: ReadonlySet<string> = new Set(['order_status', 'pg_status']);

const blank = (v: string | number | null) => v === null || v === '';

/** What a change of `field` from `old` to `next` means to the desk. */
export function meaningOf(
  field: string,
  old: string | number | null,
  next: string | number | null,
): FieldChangeMeaning {
  if (STATUS_FIELDS.has(field)) return 'status';
  if (SETTLEMENT_MONEY_FIELDS.has(field)) return 'amount';
  if (field === 'utr') return blank(old) ? 'utr_filled' : blank(next) ? 'utr_removed' : 'utr_replaced';
  if (field === 'dispute_id') return blank(old) ? 'dispute_opened' : blank(next) ? 'dispute_closed' : 'other';
  return 'other';
}

/** Each field of a stored row that the new values change, in column order. */
export function diffFields(row: Pick<StoredRow, (typeof FIELD_COLUMNS)[number]>, values: FieldValues): FieldChange[] {
  const out: FieldChange[] = [];
  for (let i = 0; i < FIELD_COLUMNS.length; i++) {
    const field = FIELD_COLUMNS[i]!;
    const old = row[field];
    const next = values[i] ?? null;
    if (old !== next) out.push({ field, old, new: next, meaning: meaningOf(field, old, next) });
  }
  return out;
}

const SELECT = `SELECT id, run_id, record_id, date, pg, pg_transaction_id, settlement_date, kind, fields, at
                FROM settlement_changes`;
const WHERE = `date BETWEEN :from AND :to AND (:pg IS NULL OR pg = :pg) AND (:runId IS NULL OR run_id = :runId)
               AND (:kind IS NULL OR kind = :kind)`;

const SQL = {
  insert: `INSERT INTO settlement_changes (run_id, record_id, date, pg, pg_transaction_id, settlement_date, kind, fields, at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  page: `${SELECT} WHERE ${WHERE} AND id > :afterId ORDER BY id LIMIT :limit`,
  byKind: `SELECT kind, count(*) FROM settlement_changes WHERE ${WHERE} GROUP BY kind`,
  runs: `SELECT c.run_id, max(c.at), count(*), r.range_from, r.range_to FROM settlement_changes c
         JOIN sync_runs r ON r.id = c.run_id
         WHERE c.date BETWEEN :from AND :to AND (:pg IS NULL OR c.pg = :pg)
         GROUP BY c.run_id ORDER BY c.run_id DESC LIMIT 50`,
  countOfRun: `SELECT count(*) FROM settlement_changes WHERE run_id = ?`,
} as const;

type Row = [number, number, number, string, string, string, string, string, string | null, string];

export interface ChangeWriter {
  /** One record's change; `fields` only for `changed`. */
  (
    change: {
      runId: number;
      recordId: number;
      date: string;
      pg: string;
      pgTransactionId: string;
      settlementDate: string;
      kind: 'new' | 'changed' | 'vanished' | 'returned';
      fields?: FieldChange[];
    },
    at: string,
  ): void;
}

export function createChangeWriter(db: Database): ChangeWriter {
  const insert = db.prepare(SQL.insert);
  return (c, at) => {
    insert.run(
      c.runId,
      c.recordId,
      c.date,
      c.pg,
      c.pgTransactionId,
      c.settlementDate,
      c.kind,
      c.fields && c.fields.length > 0 ? JSON.stringify(c.fields) : null,
      at,
    );
  };
}

export function createChangesRepository(db: Database) {
  const sql = prepareAll(db, SQL);
  const params = (q: ReturnType<typeof changesQuery.parse>) => ({
    from: q.from,
    to: q.to,
    pg: q.pg ?? null,
    runId: q.runId ?? null,
    kind: q.kind ?? null,
  });
  return {
    /** A page of changes in the order they were made, after `afterId`. */
    page(input: ChangesQuery): ChangesPage {
      const q = changesQuery.parse(input);
      const rows = sql.page.raw().all({ ...params(q), afterId: q.afterId ?? 0, limit: q.limit + 1 }) as Row[];
      const more = rows.length > q.limit;
      const changes = rows
        .slice(0, q.limit)
        .map(([id, runId, recordId, date, pg, txn, settledAt, kind, fields, at]) => ({
          id,
          runId,
          recordId,
          date,
          pg,
          pgTransactionId: txn,
          settlementDate: settledAt,
          kind: kind as 'new',
          fields: fields === null ? [] : (JSON.parse(fields) as FieldChange[]),
          at,
        }));
      return changesPage.parse({ changes, nextAfterId: more ? changes.at(-1)!.id : null });
    },
    /** Every change of the query, page by page (exports, the CLI). */
    *all(input: Omit<ChangesQuery, 'afterId' | 'limit'>) {
      let afterId = 0;
      for (;;) {
        const page = this.page({ ...input, afterId, limit: 1000 });
        yield* page.changes;
        if (page.nextAfterId === null) return;
        afterId = page.nextAfterId;
      }
    },
    summary(input: Omit<ChangesQuery, 'afterId' | 'limit'>): ChangesSummary {
      const q = changesQuery.parse(input);
      const byKind = { new: 0, changed: 0, vanished: 0, returned: 0 };
      for (const [kind, n] of sql.byKind.raw().all(params(q)) as [keyof typeof byKind, number][]) byKind[kind] = n;
      const runs = (
        sql.runs.raw().all({ from: q.from, to: q.to, pg: q.pg ?? null }) as [number, string, number, string, string][]
      ).map(([runId, at, changes, from, to]) => ({ runId, at, changes, from, to }));
      return { byKind, runs };
    },
    countOfRun(runId: number): number {
      return sql.countOfRun.pluck().get(runId) as number;
    },
  };
}
export type ChangesRepository = ReturnType<typeof createChangesRepository>;
