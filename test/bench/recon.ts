/**
 * Bank reconciliation over the size, 90 days x 20,000 records a day (1,800,000 records; `--rows` changes it):
 *  - `recon.roll_up`: the batches of the 90 days, which the ingest keeps beside the rollup (target < 3 s); beside it
 *    `upgrade_ms`, rolling them up from the records in one GROUP BY, as migration 11 does for a cache synced before;
 *  - `recon.match_full`: matching the whole 90 days to the sandbox's own statement for them (with its default
 *    discrepancies), and the report (target < 5 s); `recon.match_again`: the same run again;
 *  - `recon.statement_50k`: importing a 50,000-line statement (the sandbox's, filled up with a busy account's
 *    debits and unrelated credits) into a fresh cache and matching the 90 days to it, together (target < 5 s), with
 *    the process's CPU time beside (`cpu_ms`): on a shared machine the wall time is mostly the wait for a core.
 * The statement is built by the sandbox's generator from the same records and imported as CSV; its build and import
 * times are reported beside, outside the targets.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { openCache } from '../../electron/cache/database';
import { MIGRATIONS } from '../../electron/cache/migrations';
import { importStatement, matchPeriod } from '../../electron/reconciliation/reconcile';
import { buildStatement, statementCsv } from '../../electron/sandbox/data/bank-statement';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { addDays } from '../../shared/time';
import { scratchDir } from './records';
import { DATASET_DAYS, DATASET_FROM, DATASET_TO, datasetCopy } from './dataset';
import { createJournal } from '../../electron/journal/journal';
import { createProfileStore } from '../../electron/profiles/profile-store';
import type { Bench } from './run';

const ROLL_UP_TARGET_MS = 3_000;
const MATCH_TARGET_MS = 5_000;
const STATEMENT_LINES = 50_000;

/**
 * The statement CSV filled up to `lines` with a busy account's other lines over the period: vendor debits and
 * small unrelated credits, none of a batch's amount or UTR (amounts end in 7 paise; batches' never matter here).
 */
function filledStatement(csv: string, lines: number): Buffer {
  const have = csv.trimEnd().split('\r\n').length - 1;
  const extra: string[] = [];
  for (let i = 0; i < lines - have; i++) {
    const date = addDays(DATASET_FROM, i % DATASET_DAYS);
    const ddmmyy = `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(2, 4)}`;
    const paise = 10_007 + ((i * 7_919) % 9_000_000);
    const rupees = `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;
    extra.push(
      i % 4 === 0
        ? `${ddmmyy},UPI-REFUND-CUSTOMER ${i},,${ddmmyy},,${rupees},`
        : `${ddmmyy},IMPS-VENDOR PAYMENT ${i},,${ddmmyy},${rupees},,`,
    );
  }
  return Buffer.from(csv + extra.join('\r\n') + '\r\n');
}
const round = (ms: number) => Number(ms.toFixed(1));
const timed = <T>(work: () => T): [T, number] => {
  const t = performance.now();
  const out = work();
  return [out, performance.now() - t];
};

export const reconBenches: Bench = {
  group: 'recon',
  defaultRows: DATASET_DAYS * 20_000,
  async *run({ rows }) {
    const scratch = scratchDir();
    try {
      const pristine = join(scratch.dir, 'pristine.sqlite');
      datasetCopy(rows, pristine);
      const today = addDays(DATASET_TO, 5);

      const rollFile = join(scratch.dir, 'roll.sqlite');
      copyFileSync(pristine, rollFile);
      const cache = openCache(rollFile);
      const [batches, rollMs] = timed(() => cache.reconciliation.batches(DATASET_FROM, DATASET_TO));
      const [, upgradeMs] = timed(() =>
        cache.db.exec(
          `DELETE FROM settlement_batches; ${MIGRATIONS.find((m) => m.version === 11)!
            .sql.split(';')
            .find((q) => q.includes('INSERT INTO settlement_batches'))!};`,
        ),
      );
      cache.close();
      yield {
        bench: 'recon.roll_up',
        rows,
        batches: batches.length,
        records_in_batches: batches.reduce((s, b) => s + b.records, 0),
        ms: round(rollMs),
        upgrade_ms: round(upgradeMs),
        target_ms: ROLL_UP_TARGET_MS,
        pass: rollMs < ROLL_UP_TARGET_MS && batches.reduce((s, b) => s + b.records, 0) === rows,
      };

      // The statement, from the same generator the data set came from.
      const perDay = Math.ceil(rows / DATASET_DAYS);
      const source = new SettlementSource(
        1,
        perDay,
        GATEWAYS.map((g) => g.code),
      );
      const [statement, buildMs] = timed(() => buildStatement(source, DATASET_FROM, DATASET_TO));
      const csv = Buffer.from(statementCsv(statement));

      const matchFile = join(scratch.dir, 'match.sqlite');
      copyFileSync(pristine, matchFile);
      const fresh = openCache(matchFile);
      try {
        const importStart = performance.now();
        const journal = createJournal({
          db: fresh.db,
          profileId: 'bench',
          heads: createProfileStore({ dataDir: scratch.dir, sandbox: null }),
          appVersion: '0.1.0',
          osUser: 'bench',
          now: () => new Date(`${today}T06:30:00.000Z`),
        });
        const imported = await importStatement(fresh, journal, {
          fileName: 'statement.csv',
          bytes: csv,
          accountName: 'Bench',
        });
        const importMs = performance.now() - importStart;
        const period = { account: 'Bench', from: DATASET_FROM, to: DATASET_TO, today };
        const [report, matchMs] = timed(() => matchPeriod(fresh, period));
        const [, againMatchMs] = timed(() => matchPeriod(fresh, period));
        const states = Object.fromEntries(report.batchTotals.map((t) => [t.state, t.count]));
        yield {
          bench: 'recon.match_full',
          rows,
          statement_lines: imported.lines,
          batches: report.batches.length,
          credits: report.credits.length,
          states,
          statement_build_ms: round(buildMs),
          statement_import_ms: round(importMs),
          ms: round(matchMs),
          target_ms: MATCH_TARGET_MS,
          pass: matchMs < MATCH_TARGET_MS && states['differs'] === 1 && states['overdue'] === 1,
        };
        yield {
          bench: 'recon.match_again',
          rows,
          ms: round(againMatchMs),
          target_ms: MATCH_TARGET_MS,
          pass: againMatchMs < MATCH_TARGET_MS,
        };
      } finally {
        fresh.close();
      }

      const bigFile = join(scratch.dir, 'big.sqlite');
      copyFileSync(pristine, bigFile);
      const big = openCache(bigFile);
      try {
        const bytes = filledStatement(csv.toString(), STATEMENT_LINES);
        const journal = createJournal({
          db: big.db,
          profileId: 'bench',
          heads: createProfileStore({ dataDir: scratch.dir, sandbox: null }),
          appVersion: '0.1.0',
          osUser: 'bench',
          now: () => new Date(`${today}T06:30:00.000Z`),
        });
        const cpu = process.cpuUsage();
        const start = performance.now();
        const imported = await importStatement(big, journal, { fileName: 'big.csv', bytes, accountName: 'Bench' });
        const importMs = performance.now() - start;
        const report = matchPeriod(big, { account: 'Bench', from: DATASET_FROM, to: DATASET_TO, today });
        const ms = performance.now() - start;
        const used = process.cpuUsage(cpu);
        const states = Object.fromEntries(report.batchTotals.map((t) => [t.state, t.count]));
        yield {
          bench: 'recon.statement_50k',
          rows,
          statement_lines: imported.lines,
          import_ms: round(importMs),
          states,
          ms: round(ms),
          cpu_ms: round((used.user + used.system) / 1000),
          target_ms: MATCH_TARGET_MS,
          pass:
            ms < MATCH_TARGET_MS &&
            imported.lines === STATEMENT_LINES &&
            imported.bad.length === 0 &&
            states['differs'] === 1 &&
            states['overdue'] === 1,
        };
      } finally {
        big.close();
      }
    } finally {
      scratch.remove();
    }
  },
};
