/**
 * `journal.verify`: recomputing the hash chain of `rows` journal entries (1,000,000 by default) in a cache file,
 * from the first entry to the head kept in the settings, as `journal verify` and the Journal screen's button do.
 * Entries look like real ones (an export's data with totals and a SHA-256). Target: under 3 s for a million.
 * Measured in the same run: `ceiling.journal_read`, a bare read of the same rows on one thread with no hashing, in
 * the form and pages verification reads them (each entry's previous hash and SQLite's canonical form of it: what
 * one pass cannot go below), and `journal.verify_one_pass`, the same verification on one thread, so the line shows
 * what the worker threads gain. Each line has its CPU time beside its wall time (`cpu_ms`, worker threads
 * included: steadier than wall time on a shared machine). Also shown: the rate, the threads used, and the time to
 * write the entries in one transaction (not targeted).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { openCache } from '../../electron/cache/database';
import { createJournal } from '../../electron/journal/journal';
import { defaultVerifyThreads } from '../../electron/journal/verify';
import { PAGE_SQL } from '../../electron/journal/verify-range';
import { createProfileStore } from '../../electron/profiles/profile-store';
import { scratchDir } from './records';
import type { Bench } from './run';

const VERIFY_TARGET_MS = 3_000;
const AT = new Date('2026-06-15T06:30:00.000Z');

/** CPU milliseconds of the whole process (its worker threads too) since `start`. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return Math.round((user + system) / 1000);
}

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
      const readingCpu = process.cpuUsage();
      let read = 0;
      const page = cache.db.prepare(PAGE_SQL).raw();
      for (let rowsRead = page.all(1, rows + 1) as unknown[][]; rowsRead.length > 0;) {
        read += rowsRead.length;
        rowsRead = page.all((rowsRead.at(-1)![0] as number) + 1, rows + 1) as unknown[][];
      }
      const readMs = performance.now() - reading;
      const readCpuMs = cpuMsSince(readingCpu);
      yield { bench: 'ceiling.journal_read', entries: read, ms: Math.round(readMs), cpu_ms: readCpuMs };
      let cpu = process.cpuUsage();
      const onePass = await journal.verify({ threads: 1 });
      const onePassCpuMs = cpuMsSince(cpu);
      cpu = process.cpuUsage();
      const result = await journal.verify();
      const cpuMs = cpuMsSince(cpu);
      for (const r of [onePass, result])
        if (!r.ok || r.entries !== rows) throw new Error(`the bench journal did not verify: ${JSON.stringify(r)}`);
      yield { bench: 'journal.verify_one_pass', entries: rows, ms: Math.round(onePass.ms), cpu_ms: onePassCpuMs };
      yield {
        bench: 'journal.verify',
        entries: rows,
        ms: Math.round(result.ms),
        cpu_ms: cpuMs,
        entries_per_s: Math.round(rows / (result.ms / 1000)),
        target_ms: VERIFY_TARGET_MS,
        threads: defaultVerifyThreads(),
        ceiling: 'ceiling.journal_read',
        ceiling_ms: Math.round(readMs),
        one_pass_ms: Math.round(onePass.ms),
        pass: result.ms < VERIFY_TARGET_MS,
        write_ms: Math.round(writeMs),
      };
    } finally {
      cache.close();
      scratch.remove();
    }
  },
};
