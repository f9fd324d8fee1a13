/**
 * The desk's payout settings, per profile (each service has its own rails and its own habits): expected turnaround
 * per method and whether the watch list may use advance checks. Stored as JSON under one key; a stored value that
 * no longer fits the schema reads as the defaults rather than breaking the Payouts screen.
 */
import type { Database } from 'better-sqlite3';
import { DEFAULT_PAYOUT_SETTINGS, payoutSettings, type PayoutSettings } from '../../shared/payout-ageing';
import { prepareAll } from './statements';

const KEY = 'payouts';
const SQL = {
  get: `SELECT value FROM payout_settings WHERE key = ?`,
  put: `INSERT INTO payout_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
} as const;

export function createPayoutSettingsRepository(db: Database) {
  const sql = prepareAll(db, SQL);
  return {
    get(): PayoutSettings {
      const row = sql.get.get(KEY) as { value: string } | undefined;
      if (!row) return DEFAULT_PAYOUT_SETTINGS;
      try {
        const parsed = payoutSettings.safeParse(JSON.parse(row.value));
        return parsed.success ? parsed.data : DEFAULT_PAYOUT_SETTINGS;
      } catch {
        return DEFAULT_PAYOUT_SETTINGS;
      }
    },
    put(settings: PayoutSettings): PayoutSettings {
      const checked = payoutSettings.parse(settings);
      sql.put.run(KEY, JSON.stringify(checked));
      return checked;
    },
  };
}
