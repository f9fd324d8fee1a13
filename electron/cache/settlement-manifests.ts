/**
 * Paging manifests (written by the ingest when a date closes, settlement-ingest.ts): per (date, gateway), what
 * the last sync's passes saw. The latest run's manifest of each pair is the date's completeness.
 */
import type { Database } from 'better-sqlite3';
import { manifestQuery, type DateCompleteness, type ManifestRow } from '../../shared/settlement-changes';
import { prepareAll } from './statements';

const SQL = {
  latest: `SELECT m.date, m.pg, m.run_id, m.pages, m.records, m.settled, m.digest, m.fetched_at, m.passes, m.shifts, m.stable
           FROM settlement_manifests m
           WHERE m.date BETWEEN :from AND :to AND (:pg IS NULL OR m.pg = :pg)
             AND m.run_id = (SELECT max(run_id) FROM settlement_manifests l WHERE l.date = m.date AND l.pg = m.pg)
           ORDER BY m.date, m.pg`,
  syncedDays: `SELECT DISTINCT date FROM settlement_days WHERE date BETWEEN :from AND :to ORDER BY date`,
} as const;

type Row = [string, string, number, number, number, number, string, string, number, number, number];

export function createManifestsRepository(db: Database) {
  const sql = prepareAll(db, SQL);
  return {
    /** The latest manifest of each (date, gateway) in the range, by date then gateway. */
    latest(input: { from: string; to: string; pg?: string }): ManifestRow[] {
      const q = manifestQuery.parse(input);
      return (sql.latest.raw().all({ from: q.from, to: q.to, pg: q.pg ?? null }) as Row[]).map(
        ([date, pg, runId, pages, records, settled, digest, fetchedAt, passes, shifts, stable]) => ({
          date,
          pg,
          runId,
          pages,
          records,
          settled,
          digest,
          fetchedAt,
          passes,
          shifts,
          stable: stable === 1,
        }),
      );
    },
    /**
     * Each synced date of the range: complete when every gateway's latest manifest is stable, unstable when one
     * is not, unknown when the date was synced before manifests were kept.
     */
    completeness(input: { from: string; to: string; pg?: string }): DateCompleteness[] {
      const q = manifestQuery.parse(input);
      const byDate = new Map<string, ManifestRow[]>();
      for (const m of this.latest(q)) byDate.set(m.date, [...(byDate.get(m.date) ?? []), m]);
      const dates = sql.syncedDays.pluck().all({ from: q.from, to: q.to }) as string[];
      return [...new Set([...dates, ...byDate.keys()])].sort().map((date) => {
        const gateways = byDate.get(date) ?? [];
        const state = gateways.length === 0 ? 'unknown' : gateways.every((g) => g.stable) ? 'complete' : 'unstable';
        return { date, state, gateways };
      });
    },
  };
}
export type ManifestsRepository = ReturnType<typeof createManifestsRepository>;
