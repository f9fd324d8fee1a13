/**
 * Sync runs: what was asked (kind, range, gateway), how far each date got (its page checkpoint, which
 * the page transactions move), counts, status, error and timings.
 *
 * One settlement sync writes to a cache at a time: two writers on the same date would each believe they
 * hold the date's only index. The writer holds the cache's sync lock (sync-lock.ts), which the operating
 * system releases the moment its holder dies. So a run still marked `running` when the lock is free was
 * left by a sync that was killed or crashed: it is marked interrupted and resumed by the next sync of the
 * same range, from its checkpoints. `owner_pid` only says, in the refusal, which process holds the lock.
 */
import type { Database } from 'better-sqlite3';
import { prepareAll } from './statements';
import { tryAcquireSyncLock, type SyncLock } from './sync-lock';

export type RunStatus = 'running' | 'completed' | 'partial' | 'cancelled' | 'failed';
export type RunDateStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface SyncRun {
  id: number;
  kind: string;
  from: string;
  to: string;
  pg: string | null;
  status: RunStatus;
  attempts: number;
  startedAt: string;
  updatedAt: string;
  finishedAt: string | null;
  error: string | null;
  pages: number;
  records: number;
}

export interface RunDate {
  date: string;
  status: RunDateStatus;
  /** The checkpoint: records of the date already stored, so the next page starts here. */
  nextOffset: number;
  /** The last record stored (gateway, transaction id, settlement time as JSON): the next page starts with it. */
  lastKey: string | null;
  pages: number;
  records: number;
  updated: number;
  vanished: number;
  error: string | null;
  startedAt: string | null;
  finishedAt: string | null;
}

export class SyncBusyError extends Error {
  override name = 'SyncBusyError';
}

const RUN_COLUMNS = `r.id, r.kind, r.range_from AS "from", r.range_to AS "to", r.pg, r.status, r.attempts,
  r.started_at AS startedAt, r.updated_at AS updatedAt, r.finished_at AS finishedAt, r.error,
  (SELECT coalesce(sum(pages), 0) FROM sync_run_dates d WHERE d.run_id = r.id) AS pages,
  (SELECT coalesce(sum(records), 0) FROM sync_run_dates d WHERE d.run_id = r.id) AS records`;

const SQL = {
  running: `SELECT id, owner_pid FROM sync_runs WHERE kind = ? AND status = 'running'`,
  unfinished: `SELECT id FROM sync_runs
               WHERE kind = ? AND range_from = ? AND range_to = ? AND pg IS ? AND status <> 'completed'
               ORDER BY id DESC LIMIT 1`,
  create: `INSERT INTO sync_runs (kind, range_from, range_to, pg, status, owner_pid, started_at, updated_at)
           VALUES (?, ?, ?, ?, 'running', ?, ?, ?)`,
  addDate: `INSERT INTO sync_run_dates (run_id, date, status) VALUES (?, ?, 'pending')`,
  reopen: `UPDATE sync_runs SET status = 'running', owner_pid = ?, attempts = attempts + 1, updated_at = ?,
             finished_at = NULL, error = NULL
           WHERE id = ?`,
  retryFailedDates: `UPDATE sync_run_dates SET status = 'pending', error = NULL WHERE run_id = ? AND status = 'failed'`,
  get: `SELECT ${RUN_COLUMNS} FROM sync_runs r WHERE r.id = ?`,
  recent: `SELECT ${RUN_COLUMNS} FROM sync_runs r ORDER BY r.id DESC LIMIT ?`,
  dates: `SELECT date, status, next_offset AS nextOffset, last_key AS lastKey, pages, records, updated, vanished, error,
            started_at AS startedAt, finished_at AS finishedAt
          FROM sync_run_dates WHERE run_id = ? ORDER BY date`,
  failDate: `UPDATE sync_run_dates SET status = 'failed', error = ?, finished_at = ? WHERE run_id = ? AND date = ?`,
  finish: `UPDATE sync_runs SET status = ?, error = ?, owner_pid = NULL, updated_at = ?, finished_at = ? WHERE id = ?`,
} as const;

const INTERRUPTED = 'The sync stopped without finishing: the app or the command line was closed or killed.';

export function createSyncRunsRepository(db: Database, now: () => Date, options: { nativeBinding?: string } = {}) {
  const sql = prepareAll(db, SQL);
  /** The lock of each run this connection is executing. */
  const held = new Map<number, SyncLock>();

  const get = (id: number) => (sql.get.get(id) as SyncRun | undefined) ?? null;
  const dates = (runId: number) => sql.dates.all(runId) as RunDate[];

  /** The refusal while another sync holds the lock, naming its run and process where the cache says. */
  const busy = (kind: string): SyncBusyError => {
    const holder = (sql.running.all(kind) as { id: number; owner_pid: number | null }[]).at(-1);
    const run = holder ? ` (run ${holder.id})` : '';
    const from =
      holder?.owner_pid != null && holder.owner_pid !== process.pid ? ` from process ${holder.owner_pid}` : '';
    return new SyncBusyError(
      `Another settlement sync${run} is writing to this cache${from}. Wait for it to finish or cancel it, then sync again.`,
    );
  };

  const claim = db.transaction((kind: string, from: string, to: string, pg: string | null, days: readonly string[]) => {
    const at = now().toISOString();
    // The lock is ours, so whoever marked these running died holding it: resumable like any unfinished run.
    for (const { id } of sql.running.all(kind) as { id: number }[]) sql.finish.run('failed', INTERRUPTED, at, at, id);
    const previous = sql.unfinished.pluck().get(kind, from, to, pg) as number | undefined;
    if (previous !== undefined) {
      sql.reopen.run(process.pid, at, previous);
      sql.retryFailedDates.run(previous);
      return { id: previous, resumed: true };
    }
    const id = Number(sql.create.run(kind, from, to, pg, process.pid, at, at).lastInsertRowid);
    for (const date of days) sql.addDate.run(id, date);
    return { id, resumed: false };
  });

  return {
    /**
     * Continues the last unfinished run of this exact range (kind, from, to, gateway) from its
     * checkpoints, or starts a new one over `days`. Refuses while another sync of this kind runs.
     */
    claim(kind: string, range: { from: string; to: string; pg: string | null }, days: readonly string[]) {
      const lock = tryAcquireSyncLock(db.name, options.nativeBinding);
      if (!lock) throw busy(kind);
      try {
        const { id, resumed } = claim.immediate(kind, range.from, range.to, range.pg, days);
        held.set(id, lock);
        return { run: get(id)!, resumed, dates: dates(id) };
      } catch (e) {
        lock.release();
        throw e;
      }
    },
    get,
    dates,
    recent: (limit = 20) => sql.recent.all(limit) as SyncRun[],
    failDate(runId: number, date: string, error: string): void {
      sql.failDate.run(error, now().toISOString(), runId, date);
    },
    finish(runId: number, status: Exclude<RunStatus, 'running'>, error: string | null = null): void {
      try {
        const at = now().toISOString();
        sql.finish.run(status, error, at, at, runId);
      } finally {
        held.get(runId)?.release();
        held.delete(runId);
      }
    },
    /** Lets go of every lock this connection holds, for closing the cache under a running sync. */
    releaseAll(): void {
      for (const lock of held.values()) lock.release();
      held.clear();
    },
  };
}
export type SyncRunsRepository = ReturnType<typeof createSyncRunsRepository>;
