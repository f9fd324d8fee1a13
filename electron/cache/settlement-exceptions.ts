/**
 * The exception workflow: acknowledge, note, assign, resolve (and reopen) a record that breaks a rule, and the
 * triage answers for it. State is keyed by the record's natural key (date asked for, gateway, transaction id,
 * settlement time), not its row id, so it survives every re-sync, and a cache cleared and synced again finds it
 * as long as the file is kept. Each action also leaves an event: who did what is the trail, the state the latest.
 */
import type { Database } from 'better-sqlite3';
import {
  exceptionActionRequest,
  type ExceptionActionRequest,
  type ExceptionDetail,
  type ExceptionState,
  type ExceptionStateRow,
  type TriageAnswer,
} from '../../shared/settlement-changes';
import type { CachedSettlement, ExceptionLabel } from '../../shared/settlement-query';
import { READ_COLUMNS, readRowToCached } from './settlement-rows';
import { prepareAll } from './statements';

const KEY = 'date = ? AND pg = ? AND pg_transaction_id = ? AND settlement_date = ?';

const SQL = {
  record: `SELECT ${READ_COLUMNS.join(', ')} FROM settlements WHERE id = ?`,
  exceptionsOfDate: `SELECT ${READ_COLUMNS.join(', ')} FROM settlements INDEXED BY settlements_exceptions
                     WHERE id BETWEEN ? AND ? AND exception_flags <> 0 AND vanished_at IS NULL
                       AND (? IS NULL OR pg = ?) ORDER BY id`,
  state: `SELECT state, assignee, note, updated_at, triage, triaged_at, tag FROM settlement_exception_states WHERE ${KEY}`,
  upsert: `INSERT INTO settlement_exception_states (date, pg, pg_transaction_id, settlement_date, state, assignee, note, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (date, pg, pg_transaction_id, settlement_date) DO UPDATE SET
             state = excluded.state, assignee = excluded.assignee, note = excluded.note, updated_at = excluded.updated_at`,
  triage: `INSERT INTO settlement_exception_states
             (date, pg, pg_transaction_id, settlement_date, state, updated_at, triage, triage_model, triaged_at, tag)
           VALUES (?, ?, ?, ?, 'open', ?, ?, ?, ?, ?)
           ON CONFLICT (date, pg, pg_transaction_id, settlement_date) DO UPDATE SET
             triage = excluded.triage, triage_model = excluded.triage_model, triaged_at = excluded.triaged_at,
             tag = excluded.tag`,
  event: `INSERT INTO settlement_exception_events (date, pg, pg_transaction_id, settlement_date, at, action, text)
          VALUES (?, ?, ?, ?, ?, ?, ?)`,
  events: `SELECT at, action, text FROM settlement_exception_events WHERE ${KEY} ORDER BY id`,
  unpublish: `INSERT INTO desk_unpublished_dates (date, since) VALUES (?, ?) ON CONFLICT (date) DO NOTHING`,
  unpublished: `SELECT date FROM desk_unpublished_dates ORDER BY date`,
  published: `DELETE FROM desk_unpublished_dates WHERE date = ?`,
  localLabel: `SELECT state, assignee FROM settlement_exception_states WHERE ${KEY}`,
  deskLabel: `SELECT state, assignee FROM desk_exception_states WHERE ${KEY}`,
  clearDesk: 'DELETE FROM desk_exception_states',
  deskState: `INSERT INTO desk_exception_states (date, pg, pg_transaction_id, settlement_date, state, assignee)
              VALUES (?, ?, ?, ?, ?, ?)`,
} as const;

/** What the grid's state column says: resolved first, then an owner, then the state. */
export function exceptionLabel(state: ExceptionState, assignee: string | null): ExceptionLabel {
  if (state === 'resolved') return 'resolved';
  return assignee ? 'assigned' : state;
}

type StateRow = [ExceptionState, string | null, string | null, string, string | null, string | null, string | null];

/** Refused by the workflow itself (no such record, no exception on it, an action its state does not allow). */
export class ExceptionWorkflowError extends Error {
  override name = 'ExceptionWorkflowError';
  /** What the IPC router passes on as the error's code. */
  readonly code = 'EXCEPTION_REFUSED';
}

const NEW_STATE: Partial<Record<ExceptionActionRequest['action'], ExceptionState>> = {
  acknowledge: 'acknowledged',
  resolve: 'resolved',
  reopen: 'open',
};

/** Which actions each state allows; note and assign are allowed in every state. */
const ALLOWED_FROM: Partial<Record<ExceptionActionRequest['action'], readonly ExceptionState[]>> = {
  acknowledge: ['open'],
  resolve: ['open', 'acknowledged'],
  reopen: ['acknowledged', 'resolved'],
};

export const OPEN_STATE: ExceptionStateRow = {
  state: 'open',
  assignee: null,
  note: null,
  updatedAt: null,
  triage: null,
  triagedAt: null,
  tag: null,
};

export function createExceptionsRepository(db: Database, now: () => Date) {
  const sql = prepareAll(db, SQL);
  const keyOf = (r: CachedSettlement) => [r.date, r.pg, r.pg_transaction_id, r.settlement_date] as const;

  const record = (recordId: number): CachedSettlement => {
    const row = sql.record.raw().get(recordId) as unknown[] | undefined;
    if (!row) throw new ExceptionWorkflowError(`record ${recordId} is not in the cache`);
    const r = readRowToCached(row);
    if (r.exceptions.length === 0) throw new ExceptionWorkflowError(`record ${recordId} breaks no rule`);
    return r;
  };

  const stateOfKey = (key: readonly [string, string, string, string]): ExceptionStateRow => {
    const row = sql.state.raw().get(...key) as StateRow | undefined;
    if (!row) return OPEN_STATE;
    const [state, assignee, note, updatedAt, triage, triagedAt, tag] = row;
    return {
      state,
      assignee,
      note,
      updatedAt,
      triage: triage === null ? null : (JSON.parse(triage) as TriageAnswer),
      triagedAt,
      tag,
    };
  };

  type Key = readonly [string, string, string, string];

  /** Why the action cannot be taken from the key's state, or null when it can. */
  const refusal = (action: ExceptionActionRequest['action'], current: ExceptionStateRow): string | null => {
    const allowed = ALLOWED_FROM[action];
    return allowed && !allowed.includes(current.state)
      ? `cannot ${action} an exception that is ${current.state}`
      : null;
  };

  /** The action's new state and its event, inside the caller's transaction. */
  const write = (key: Key, action: ExceptionActionRequest['action'], text: string | null, at: string) => {
    const current = stateOfKey(key);
    sql.upsert.run(
      ...key,
      NEW_STATE[action] ?? current.state,
      action === 'assign' ? text : current.assignee,
      text !== null && action !== 'assign' ? text : current.note,
      at,
    );
    sql.event.run(...key, at, action, text);
  };

  const act = db.transaction((request: ExceptionActionRequest): ExceptionDetail => {
    const q = exceptionActionRequest.parse(request);
    const r = record(q.recordId);
    const key = keyOf(r);
    const refused = refusal(q.action, stateOfKey(key));
    if (refused) throw new ExceptionWorkflowError(refused);
    write(key, q.action, q.text ?? null, now().toISOString());
    return detailOf(r);
  });

  const detailOf = (r: CachedSettlement): ExceptionDetail => {
    const key = keyOf(r);
    const events = sql.events.all(...key) as { at: string; action: string; text: string | null }[];
    return { ...stateOfKey(key), events };
  };

  return {
    /** The record a workflow request names, refused when it is not cached or breaks no rule. */
    record,
    /** A key's state (open when nothing was done). */
    stateOfKey: (key: Key) => stateOfKey(key),
    /** Why an action cannot be taken from a state, or null. */
    refusal,
    /** Writes an action's state and event for one key; the caller holds the transaction and checked `refusal`. */
    write,
    /** One action on one record's exception, with its event, in one transaction; the new state and trail. */
    act: (request: ExceptionActionRequest) => act(request),
    detail: (recordId: number) => detailOf(record(recordId)),
    /** The workflow state of a record (open when nothing was done), or null when it breaks no rule. */
    stateOf(r: Pick<CachedSettlement, 'date' | 'pg' | 'pg_transaction_id' | 'settlement_date' | 'exceptions'>) {
      if (r.exceptions.length === 0) return null;
      return stateOfKey([r.date, r.pg, r.pg_transaction_id, r.settlement_date]);
    },
    /** The current records of a date (one gateway, or all) that break a rule, in arrival order. */
    /** Synced dates whose exceptions the desk has not had yet (it could not be reached), oldest first. */
    unpublishedDates: (): string[] => (sql.unpublished.all() as { date: string }[]).map((r) => r.date),
    markUnpublished(date: string): void {
      sql.unpublish.run(date, now().toISOString());
    },
    markPublished(date: string): void {
      sql.published.run(date);
    },

    exceptionsOfDate(range: { lo: number; hi: number }, pg: string | null): CachedSettlement[] {
      return (sql.exceptionsOfDate.raw().all(range.lo, range.hi, pg, pg) as unknown[][]).map(readRowToCached);
    },
    /**
     * The state column of a page's rows: each record that breaks a rule gets its workflow state, by the cache's own
     * states or (on a desk) the desk's copied into the cache; a primary-key read per exception on the page.
     */
    labelled(rows: CachedSettlement[], source: 'local' | 'desk'): CachedSettlement[] {
      const read = source === 'local' ? sql.localLabel : sql.deskLabel;
      return rows.map((r) => {
        if (r.exceptions.length === 0) return { ...r, exceptionState: null };
        const found = read.raw().get(...keyOf(r)) as [ExceptionState, string | null] | undefined;
        return { ...r, exceptionState: found ? exceptionLabel(found[0], found[1]) : 'open' };
      });
    },
    /** The desk's exceptions that are not plainly open, replacing the previous copy in one transaction. */
    replaceDeskStates: db.transaction(
      (rows: readonly (readonly [string, string, string, string, string, string | null])[]) => {
        sql.clearDesk.run();
        for (const row of rows) sql.deskState.run(...row);
      },
    ),
    /** Stores a triage's answers and the tag it earned (null below the threshold), with an event. */
    saveTriage: db.transaction((r: CachedSettlement, answer: TriageAnswer, tag: string | null) => {
      const key = keyOf(r);
      const at = now().toISOString();
      sql.triage.run(...key, at, JSON.stringify(answer), answer.model, at, tag);
      const line = `${answer.cause} (${Math.round(answer.causeProbability * 100)}%), severity ${answer.severity.toFixed(1)} of 5, escalate ${Math.round(answer.escalate * 100)}%`;
      sql.event.run(...key, at, 'triage', tag === null ? `${line}; below the threshold, not tagged` : line);
    }),
  };
}
export type ExceptionsRepository = ReturnType<typeof createExceptionsRepository>;
