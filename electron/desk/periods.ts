/** The desk's closed periods: list, close and reopen (an approver's), each journaled by the database. */
import type pg from 'pg';
import { callForSeq } from './errors';

export interface DeskPeriod {
  id: number;
  from: string;
  to: string;
  closedAt: string;
  closedBy: string;
  reopenedAt: string | null;
  reopenedBy: string | null;
  reopenReason: string | null;
}

export function createDeskPeriods(pool: pg.Pool, consoleName: string) {
  const call = (sql: string, params: unknown[]) => callForSeq(pool, sql, params);
  return {
    async list(): Promise<DeskPeriod[]> {
      const { rows } = await pool.query<{
        id: number;
        range_from: string;
        range_to: string;
        closed_at: Date;
        closed_by: string;
        reopened_at: Date | null;
        reopened_by: string | null;
        reopen_reason: string | null;
      }>('SELECT * FROM desk.periods ORDER BY range_from DESC, id DESC');
      return rows.map((r) => ({
        id: r.id,
        from: r.range_from,
        to: r.range_to,
        closedAt: r.closed_at.toISOString(),
        closedBy: r.closed_by,
        reopenedAt: r.reopened_at?.toISOString() ?? null,
        reopenedBy: r.reopened_by,
        reopenReason: r.reopen_reason,
      }));
    },
    close: (from: string, to: string) => call('SELECT desk.close_period($1, $2, $3) AS seq', [from, to, consoleName]),
    reopen: (id: number, reason: string) =>
      call('SELECT desk.reopen_period($1, $2, $3) AS seq', [id, reason, consoleName]),
  };
}
export type DeskPeriods = ReturnType<typeof createDeskPeriods>;
