/**
 * `cache verify`: every cached settlement date held against the digest its last sync stored and its rollup against
 * its rows (electron/cache/settlement-verify.ts), with progress. Offline. Exit 1 when anything differs, naming the
 * dates to re-fetch with `sync settlements`; nothing is repaired from the cache's own data. The group is singular, as
 * `journal` and `desk` are: a profile has one cache.
 */
import { UsageError, progressLine, result, table, EXIT } from '../io';
import type { Command } from '../command';
import { openProfileCache } from './settlements';
import { cacheDate } from '../../../shared/settlement-query';
import type { CacheVerifyResult } from '../../../shared/cache-verify';
import type { Values } from '../command';

function dateOption(values: Values, name: 'from' | 'to'): string | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (!cacheDate.safeParse(value).success) throw new UsageError(`--${name} must be a date YYYY-MM-DD, got "${value}"`);
  return value as string;
}

function describe(r: CacheVerifyResult): string {
  const checked =
    r.dates === 0
      ? 'The cache holds no settlement dates to check.'
      : `Checked ${r.dates} dates (${r.from} to ${r.to}), ${r.records.toLocaleString('en-IN')} records.`;
  const undigested =
    r.undigested.length === 0
      ? []
      : [
          `${r.undigested.length} dates have no digest their rows can be held against (synced before digests were ` +
            `kept, while the service's list kept moving, or by a sync that did not finish): only their totals were ` +
            `checked (${r.undigested.join(', ')}).`,
        ];
  if (r.mismatches.length === 0) return [checked, 'Every date holds what its sync stored.', ...undigested].join('\n');
  return [
    checked,
    table(
      ['DATE', 'GATEWAY', 'WHAT', 'FOUND'],
      r.mismatches.map((m) => [m.date, m.pg ?? '', m.kind, m.message]),
    ),
    `${r.affectedDates.length} dates do not hold what their sync stored; re-fetch them from the API with ` +
      `sync settlements (${r.affectedDates.join(', ')}).`,
    ...undigested,
  ].join('\n');
}

const verify: Command = {
  words: ['cache', 'verify'],
  usage:
    'cache verify [--from YYYY-MM-DD] [--to YYYY-MM-DD]   (cached records against their digests, totals against ' +
    'their records; exit 1 names the dates to re-fetch)',
  options: { from: { type: 'string' }, to: { type: 'string' } },
  async run({ ctx, values, io }) {
    const from = dateOption(values, 'from') ?? '1970-01-01';
    const to = dateOption(values, 'to') ?? '9999-12-31';
    if (from > to) throw new UsageError('--to must not be before --from');
    const { verifier } = openProfileCache(ctx, io).settlements;
    const line = progressLine(io);
    const r = await verifier.verify(verifier.dates({ from, to }), {
      onProgress: (p) =>
        line.update(`${p.datesDone}/${p.dates} dates checked, ${p.records.toLocaleString('en-IN')} records`),
    });
    line.done();
    result(io, r, () => describe(r));
    if (r.mismatches.length > 0) return EXIT.refused;
  },
};

export const cacheCommands = [verify];
