/**
 * Bulk payout check runs: one row per run, one item per distinct id with how it ended and the lookup it made.
 * An advance item that waits for the service is 'queued' here, so the queue is in the cache and survives a
 * restart; an item still 'pending' in a run this process is not running was cut off by a closed app.
 */
import type { Database } from 'better-sqlite3';
import type { PayoutCheckOutcome, PayoutCheckItem, PayoutCheckRun } from '../../shared/payout-checks';
import { countOutcomes } from '../../shared/payout-checks';
import type { PayoutLookupMode } from '../../shared/payouts';
import type { PayoutsRepository } from './payouts';
import { prepareAll } from './statements';

const SQL = {
  insertRun: `INSERT INTO payout_check_runs (mode, started_at) VALUES (?, ?)`,
  insertItem: `INSERT INTO payout_check_items (run_id, position, payout_id, outcome) VALUES (?, ?, ?, 'pending')`,
  settle: `UPDATE payout_check_items SET outcome = :outcome, lookup_id = :lookupId, error = :error
           WHERE run_id = :runId AND position = :position`,
  finish: `UPDATE payout_check_runs SET finished_at = ? WHERE id = ?`,
  run: `SELECT id, mode, started_at AS startedAt, finished_at AS finishedAt FROM payout_check_runs WHERE id = ?`,
  latest: `SELECT max(id) AS id FROM payout_check_runs`,
  items: `SELECT position, payout_id AS payoutId, outcome, lookup_id AS lookupId, error
          FROM payout_check_items WHERE run_id = ? ORDER BY position`,
  queued: `SELECT run_id AS runId, position, payout_id AS payoutId FROM payout_check_items
           WHERE outcome = 'queued' ORDER BY run_id, position`,
} as const;

interface ItemRow {
  position: number;
  payoutId: string;
  outcome: PayoutCheckOutcome;
  lookupId: number | null;
  error: string | null;
}

export interface QueuedCheck {
  runId: number;
  position: number;
  payoutId: string;
}

export function createPayoutChecksRepository(db: Database, now: () => Date, payouts: PayoutsRepository) {
  const sql = prepareAll(db, SQL);
  return {
    /** A new run with an item per id, all pending, in one transaction. */
    start(mode: PayoutLookupMode, ids: readonly string[]): number {
      return db.transaction(() => {
        const runId = Number(sql.insertRun.run(mode, now().toISOString()).lastInsertRowid);
        ids.forEach((id, position) => sql.insertItem.run(runId, position, id));
        return runId;
      })();
    },
    settle(
      runId: number,
      position: number,
      end: { outcome: PayoutCheckOutcome; lookupId?: number | null; error?: string | null },
    ): void {
      sql.settle.run({
        runId,
        position,
        outcome: end.outcome,
        lookupId: end.lookupId ?? null,
        error: end.error ?? null,
      });
    },
    finish(runId: number): void {
      sql.finish.run(now().toISOString(), runId);
    },
    latestId(): number | null {
      return (sql.latest.get() as { id: number | null }).id;
    },
    /** The run with each item's lookup; null for an unknown id. */
    get(runId: number): PayoutCheckRun | null {
      const run = sql.run.get(runId) as Omit<PayoutCheckRun, 'items' | 'counts'> | undefined;
      if (!run) return null;
      const items: PayoutCheckItem[] = (sql.items.all(runId) as ItemRow[]).map(({ lookupId, ...item }) => ({
        ...item,
        lookup: lookupId === null ? null : payouts.byId(lookupId),
      }));
      return { ...run, items, counts: countOutcomes(items) };
    },
    /** Advance checks waiting for the service, oldest run first. */
    queued: () => sql.queued.all() as QueuedCheck[],
  };
}
export type PayoutChecksRepository = ReturnType<typeof createPayoutChecksRepository>;
