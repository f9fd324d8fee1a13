/**
 * `npm run bench [-- --only NAME,NAME] [--rows N]`: one JSON object per line on stdout. A figure is compared
 * either with a ceiling measured in the same run on the same machine (`ceiling` names that line) or, where
 * there is no bare equivalent to measure (query, ui), with fixed targets (`target_ms`, `targets`).
 *
 * Each group runs in a process of its own, one after the other: what a group leaves behind (its heap's garbage,
 * compiled code, timers, the SQLite files it had open) is then not in the next group's figures. In one process, a
 * whole run's find group once read its slowest first page in 58.8 ms where the group alone took 20–30.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cacheBenches } from './cache';
import { deskBenches } from './desk';
import { clientBenches } from './client';
import { exportBenches } from './export';
import { DATASETS_ENV } from './dataset';
import { findBenches } from './find';
import { indexBenches } from './indexes';
import { openBenches } from './open';
import { journalBenches } from './journal';
import { queryBenches } from './query';
import { reconBenches } from './recon';
import { sandboxBenches } from './sandbox';
import { syncBenches } from './sync';
import { todayBenches } from './today';
import { uiBenches } from './ui';

export interface BenchResult {
  bench: string;
  [figure: string]: unknown;
}
export interface BenchContext {
  rows: number;
}
export type Bench = {
  group: string;
  /** Rows when `--rows` is not given (200,000 unless the group says otherwise). */
  defaultRows?: number;
  run(ctx: BenchContext): AsyncGenerator<BenchResult>;
};

const BENCHES: Bench[] = [
  sandboxBenches,
  clientBenches,
  cacheBenches,
  syncBenches,
  queryBenches,
  findBenches,
  indexBenches,
  openBenches,
  uiBenches,
  exportBenches,
  journalBenches,
  reconBenches,
  deskBenches,
  todayBenches,
];

async function main() {
  const { values } = parseArgs({ options: { only: { type: 'string' }, rows: { type: 'string' } } });
  const rows = values.rows === undefined ? undefined : Number(values.rows);
  if (rows !== undefined && (!Number.isSafeInteger(rows) || rows <= 0)) {
    process.stderr.write(`--rows must be a positive whole number, got ${values.rows}\n`);
    process.exit(2);
  }
  const only = values.only?.split(',').map((s) => s.trim());
  const unknown = only?.filter((g) => !BENCHES.some((b) => b.group === g)) ?? [];
  if (unknown.length) {
    process.stderr.write(
      `unknown bench group ${unknown.join(', ')}; known: ${BENCHES.map((b) => b.group).join(', ')}\n`,
    );
    process.exit(2);
  }
  const groups = BENCHES.filter((b) => !only || only.includes(b.group));
  if (process.env[DATASETS_ENV] !== undefined) {
    // A group's own process, started below.
    for (const b of groups) {
      for await (const result of b.run({ rows: rows ?? b.defaultRows ?? 200_000 })) {
        process.stdout.write(JSON.stringify(result) + '\n');
      }
    }
    return;
  }
  const datasets = mkdtempSync(join(tmpdir(), 'payout-bench-datasets-'));
  try {
    for (const b of groups) {
      const code = await runGroup(b.group, values.rows, datasets);
      if (code !== 0) {
        process.stderr.write(`bench group ${b.group} failed (${code}); the groups after it were not run\n`);
        process.exitCode = 1;
        return;
      }
    }
  } finally {
    rmSync(datasets, { recursive: true, force: true });
  }
}

/** Runs one group in a process of its own (this script, with the same loader), its lines straight to stdout. */
function runGroup(group: string, rows: string | undefined, datasets: string): Promise<number | string> {
  const args = [
    ...process.execArgv,
    process.argv[1]!,
    '--only',
    group,
    ...(rows === undefined ? [] : ['--rows', rows]),
  ];
  const child = spawn(process.execPath, args, {
    stdio: 'inherit',
    env: { ...process.env, [DATASETS_ENV]: datasets },
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'no exit code'));
  });
}

await main();
