/**
 * Each date's exception figures: the records that break a rule, grouped by their rules, state and assignee, with
 * the amount at risk — what Today's exception panel sums. A date's figures are worked out again from its rows, never
 * adjusted, whenever it is listed stale (migration 24's triggers list it on any change of its records or their
 * states); a date listed stale and not yet worked out is read from its rows, so the figures are never behind.
 */
import type { Database } from 'better-sqlite3';
import { idRange } from './settlement-ids';
import { prepareAll } from './statements';

/** A record's group and its amount at risk: the larger of what was paid and what was settled. */
const GROUPED = `s.exception_flags AS flags, coalesce(st.state, 'open') AS state, coalesce(st.assignee, '') AS assignee,
                 count(*) AS records, sum(max(abs(s.amount), abs(s.settled_amount))) AS risk`;
const OF_DATE = `FROM settlements s LEFT JOIN settlement_exception_states st
                   ON st.date = s.date AND st.pg = s.pg AND st.pg_transaction_id = s.pg_transaction_id
                  AND st.settlement_date = s.settlement_date
                 WHERE s.id BETWEEN :lo AND :hi AND s.date = :date AND s.exception_flags <> 0
                   AND s.vanished_at IS NULL`;

const SQL = {
  stale: 'SELECT date FROM exception_days_stale ORDER BY date',
  drop: 'DELETE FROM exception_day_figures WHERE date = ?',
  fill: `INSERT INTO exception_day_figures (date, flags, state, assignee, records, risk)
         SELECT :date, ${GROUPED} ${OF_DATE} GROUP BY 2, 3, 4`,
  fresh: 'DELETE FROM exception_days_stale WHERE date = ?',
  kept: `SELECT flags, state, assignee, records, risk, date FROM exception_day_figures
         WHERE date NOT IN (SELECT date FROM exception_days_stale)`,
  ofDate: `SELECT ${GROUPED}, :date AS date ${OF_DATE} GROUP BY 1, 2, 3`,
} as const;

/** One group of one date: its records' count and amount at risk. */
export interface ExceptionFigure {
  flags: number;
  state: string;
  /** '' when nobody is assigned. */
  assignee: string;
  records: number;
  risk: number;
  date: string;
}

export function createExceptionFigures(db: Database) {
  const sql = prepareAll(db, SQL);
  const bind = (date: string) => ({ date, ...idRange(date, date) });
  const staleDates = () => sql.stale.pluck().all() as string[];
  return {
    /** Every date's groups: those kept, and the stale dates' read from their rows now. */
    figures(): ExceptionFigure[] {
      const kept = sql.kept.all() as ExceptionFigure[];
      for (const date of staleDates()) kept.push(...(sql.ofDate.all(bind(date)) as ExceptionFigure[]));
      return kept;
    },
    /** Works the stale dates out again from their rows (after a sync, after an action); how many there were. */
    refresh(): number {
      const dates = staleDates();
      db.transaction(() => {
        for (const date of dates) {
          sql.drop.run(date);
          sql.fill.run(bind(date));
          sql.fresh.run(date);
        }
      })();
      return dates.length;
    },
  };
}
export type ExceptionFigures = ReturnType<typeof createExceptionFigures>;
