import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 9,
  name: 'bulk payout checks, first sight of each payout, payout settings',
  // A run's items are its queue too: an advance check waiting for the service is an item whose outcome is
  // 'queued', so the queue survives a restart with the run it belongs to. First sight is kept apart from the
  // lookups so that clearing nothing else can move it; the lookups already made give it its first value.
  sql: `
      CREATE TABLE payout_check_runs (
        id INTEGER PRIMARY KEY,
        mode TEXT NOT NULL CHECK (mode IN ('normal', 'advance')),
        started_at TEXT NOT NULL,
        finished_at TEXT
      );
      CREATE TABLE payout_check_items (
        run_id INTEGER NOT NULL REFERENCES payout_check_runs (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        payout_id TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('pending', 'checked', 'refused', 'failed', 'queued')),
        lookup_id INTEGER REFERENCES payout_lookups (id),
        error TEXT,
        PRIMARY KEY (run_id, position)
      ) WITHOUT ROWID;
      CREATE INDEX payout_check_items_queued ON payout_check_items (outcome) WHERE outcome = 'queued';
      CREATE TABLE payout_first_seen (
        payout_id TEXT PRIMARY KEY,
        first_seen_at TEXT NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO payout_first_seen (payout_id, first_seen_at)
        SELECT payout_id, min(looked_up_at) FROM payout_lookups WHERE payout IS NOT NULL GROUP BY payout_id;
      CREATE TABLE payout_settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
};
