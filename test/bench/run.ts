/**
 * `npm run bench [-- --only NAME,NAME] [--rows N]`: one JSON object per line on stdout. A figure is compared
 * either with a ceiling measured in the same run on the same machine (`ceiling` names that line) or, where
 * there is no bare equivalent to measure (query, ui), with fixed targets (`target_ms`, `targets`).
 */
import { parseArgs } from 'node:util';
import { cacheBenches } from './cache';
import { clientBenches } from './client';
import { exportBenches } from './export';
import { findBenches } from './find';
import { openBenches } from './open';
import { journalBenches } from './journal';
import { queryBenches } from './query';
import { reconBenches } from './recon';
import { sandboxBenches } from './sandbox';
import { syncBenches } from './sync';
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
  openBenches,
  uiBenches,
  exportBenches,
  journalBenches,
  reconBenches,
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
  for (const b of BENCHES.filter((b) => !only || only.includes(b.group))) {
    for await (const result of b.run({ rows: rows ?? b.defaultRows ?? 200_000 })) {
      process.stdout.write(JSON.stringify(result) + '\n');
    }
  }
}

await main();
