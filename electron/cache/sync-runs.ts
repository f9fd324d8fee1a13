/**
 * Sync runs: what was asked (kind, range, gateway), how far each date got (its page checkpoint, which
 * the page transactions move), counts, status, error and timings.
 *
 * One settlement sync writes to a cache at a time: two writers on the same date would each believe they
 * hold the date's only index. A run marked `running` belongs to the process in `owner_pid`; when that
 * process is gone (killed, crashed) the run is resumed by the next sync of the same range, from its
 * checkpoints. A process id reused by an unrelated program after a crash reads as busy; the message
 * says how to tell.
 */
import type { Database } from 'better-sqlite3';
import { prepareAll } from './statements';

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
  dates: `SELECT date, status, next_offset AS nextOffset, pages, records, updated, vanished, error,
            started_at AS startedAt, finished_at AS finishedAt
          FROM sync_run_dates WHERE run_id = ? ORDER BY date`,
  failDate: `UPDATE sync_run_dates SET status = 'failed', error = ?, finished_at = ? WHERE run_id = ? AND date = ?`,
  finish: `UPDATE sync_runs SET status = ?, error = ?, owner_pid = NULL, updated_at = ?, finished_at = ? WHERE id = ?`,
} as const;

const INTERRUPTED = 'The sync stopped without finishing: the app or the command line was closed or killed.';

/** Whether a process id is alive on this machine (EPERM: alive, but someone else's). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs this process is executing now; a `running` row of ours not in here was left by an earlier failure. */
const activeHere = new Set<string>();

export function createSyncRunsRepository(db: Database, now: () => Date) {
  const sql = prepareAll(db, SQL);
  const activeKey = (id: number) => `${db.name}#${id}`;

  const get = (id: number) => (sql.get.get(id) as SyncRun | undefined) ?? null;
  const dates = (runId: number) => sql.dates.all(runId) as RunDate[];

  const claim = db.transaction((kind: string, from: string, to: string, pg: string | null, days: readonly string[]) => {
    const at = now().toISOString();
    for (const { id, owner_pid } of sql.running.all(kind) as { id: number; owner_pid: number | null }[]) {
      const ours = owner_pid === process.pid;
      if (owner_pid !== null && (ours ? activeHere.has(activeKey(id)) : processAlive(owner_pid))) {
        throw new SyncBusyError(
          `Another settlement sync (run ${id}) is writing to this cache${ours ? '' : ` from process ${owner_pid}`}. ` +
            'Wait for it to finish or cancel it, then sync again.',
        );
      }
      // Its process is gone: resumable like any unfinished run, and no longer shown as running.
      sql.finish.run('failed', INTERRUPTED, at, at, id);
    }
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
      const { id, resumed } = claim.immediate(kind, range.from, range.to, range.pg, days);
      activeHere.add(activeKey(id));
      return { run: get(id)!, resumed, dates: dates(id) };
    },
    get,
    dates,
    recent: (limit = 20) => sql.recent.all(limit) as SyncRun[],
    failDate(runId: number, date: string, error: string): void {
      sql.failDate.run(error, now().toISOString(), runId, date);
    },
    finish(runId: number, status: Exclude<RunStatus, 'running'>, error: string | null = null): void {
      const at = now().toISOString();
      sql.finish.run(status, error, at, at, runId);
      activeHere.delete(activeKey(runId));
    },
  };
}
export type SyncRunsRepository = ReturnType<typeof createSyncRunsRepository>;
