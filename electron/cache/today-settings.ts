/** The Today screen's setting, per profile: how many days "Refresh all" syncs (shared/today.ts has the default). */
import type { Database } from 'better-sqlite3';
import { refreshDays } from '../../shared/today';
import { prepareAll } from './statements';

const SQL = {
  get: 'SELECT refresh_days FROM today_settings WHERE id = 1',
  put: `INSERT INTO today_settings (id, refresh_days) VALUES (1, ?)
        ON CONFLICT (id) DO UPDATE SET refresh_days = excluded.refresh_days`,
} as const;

export function createTodaySettingsRepository(db: Database) {
  const sql = prepareAll(db, SQL);
  return {
    /** Null when never set: the caller's default applies. */
    refreshDays: (): number | null => (sql.get.pluck().get() as number | undefined) ?? null,
    setRefreshDays(days: number): void {
      sql.put.run(refreshDays.parse(days));
    },
  };
}
