/**
 * `journal.verify`: recomputing the hash chain of `rows` journal entries (1,000,000 by default) in a cache file,
 * from the first entry to the head kept in the settings, as `journal verify` and the Journal screen's button do.
 * Entries look like real ones (an export's data with totals and a SHA-256). Target: under 3 s for a million.
 * Its ceiling, measured in the same run: `ceiling.journal_read`, a bare read of the same rows and columns with no
 * hashing (what verification cannot go below while it reads every field). Also shown: the rate, and the time to
 * write the entries in one transaction (not targeted).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { openCache } from '../../electron/cache/database';
import { createJournal } from '../../electron/journal/journal';
import { createProfileStore } from '../../electron/profiles/profile-store';
import { scratchDir } from './cache';
import type { Bench } from './run';

const VERIFY_TARGET_MS = 3_000;
const AT = new Date('2026-06-15T06:30:00.000Z');

export const journalBenches: Bench = {
  group: 'journal',
  defaultRows: 1_000_000,
  async *run({ rows }) {
    const scratch = scratchDir();
    const cache = openCache(join(scratch.dir, 'cache.sqlite'), { now: () => AT });
    try {
      const heads = createProfileStore({ dataDir: scratch.dir, sandbox: null, now: () => AT });
      const journal = createJournal({
        db: cache.db,
        profileId: 'bench',
        heads,
        appVersion: '0.1.0',
        osUser: 'bench',
        now: () => AT,
      });
      const writing = performance.now();
      journal.transact((append) => {
        for (let i = 1; i <= rows; i++) {
          append({
            kind: 'export',
            event: 'export.settlements',
            outcome: 'completed',
            summary: `Exported settlements 2026-06-01 to 2026-06-14 as XLSX: ${i} rows to settlements-${i}.xlsx.`,
            data: {
              kind: 'settlements',
              format: 'xlsx',
              filter: { from: '2026-06-01', to: '2026-06-14' },
              rows: i,
              totals: { count: i, amount: i * 123_45, settled: i * 120_00 },
              fileName: `settlements-${i}.xlsx`,
              sha256: createHash('sha256').update(String(i)).digest('hex'),
            },
          });
        }
      });
      const writeMs = performance.now() - writing;
      const reading = performance.now();
      let read = 0;
      for (const row of cache.db
        .prepare(
          `SELECT seq, at, kind, event, outcome, refers_to, request_id, summary, data, app_version, os_user, prev_hash, hash
           FROM journal ORDER BY seq`,
        )
        .raw()
        .iterate()) {
        if (row) read++;
      }
      const readMs = performance.now() - reading;
      yield { bench: 'ceiling.journal_read', entries: read, ms: Math.round(readMs) };
      const result = journal.verify();
      if (!result.ok || result.entries !== rows)
        throw new Error(`the bench journal did not verify: ${JSON.stringify(result)}`);
      yield {
        bench: 'journal.verify',
        entries: rows,
        ms: Math.round(result.ms),
        entries_per_s: Math.round(rows / (result.ms / 1000)),
        target_ms: VERIFY_TARGET_MS,
        ceiling: 'ceiling.journal_read',
        ceiling_ms: Math.round(readMs),
        pass: result.ms < VERIFY_TARGET_MS,
        write_ms: Math.round(writeMs),
      };
    } finally {
      cache.close();
      scratch.remove();
    }
  },
};
