/**
 * A settlement sync in a process of its own, for the end-to-end sync benchmark (test/bench/sync.ts), so that the
 * peak memory it reports is the sync's own. It is the sync without the rest of the app: the API client and
 * `syncSettlements` over a cache file, with no profiles or keychain. (The crash test kills the CLI's
 * `sync settlements` instead.)
 *
 *   node --import tsx test/support/settlement-sync-child.ts --base-url URL --key K --secret-env VAR \
 *     --file CACHE.sqlite --from D --to D [--pg CODE] [--concurrency N]
 *
 * stdout: one JSON line per progress event `{"progress": ...}`, then `{"summary": ..., "cpu_ms": N, "peak_rss_mb": N, ...}`
 * with the sync's CPU, the search and sort keys' times and the peak after them.
 */
import { parseArgs } from 'node:util';
import { createMerchantApi } from '../../electron/api';
import { openCache } from '../../electron/cache/database';
import { syncSettlements, writeKeysAfter } from '../../electron/sync/settlement-sync';

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    key: { type: 'string' },
    'secret-env': { type: 'string' },
    file: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    pg: { type: 'string' },
    concurrency: { type: 'string' },
  },
});
const baseUrl = values['base-url']!;
const secret = process.env[values['secret-env']!];
if (!secret) throw new Error(`no secret in $${values['secret-env']}`);

const api = createMerchantApi({
  profile: { baseUrl, aiUrl: `${baseUrl}/ai`, key: values.key!, hashScheme: 'sha512' },
  secret: () => secret,
});
const cache = openCache(values.file!);
try {
  // The process's CPU over the sync (every thread's): the rate it allows were the sync never waiting on the network.
  const cpuBefore = process.cpuUsage();
  const summary = await syncSettlements({
    api,
    cache,
    from: values.from!,
    to: values.to!,
    pg: values.pg,
    concurrency: values.concurrency === undefined ? undefined : Number(values.concurrency),
    onProgress: (progress) => process.stdout.write(`${JSON.stringify({ progress })}\n`),
  });
  const cpu = process.cpuUsage(cpuBefore);
  const peak = Math.round(process.resourceUsage().maxRSS / 1024);
  // Written after the sync has answered, as the app and the CLI do: timed on their own, beside the sync.
  const { searchKeysMs, sortKeysMs } = await writeKeysAfter(cache, 'worker');
  const peakAfter = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(
    `${JSON.stringify({ summary, cpu_ms: Math.round((cpu.user + cpu.system) / 1000), peak_rss_mb: peak, search_keys_ms: searchKeysMs, sort_keys_ms: sortKeysMs, peak_rss_mb_with_keys: peakAfter })}\n`,
  );
} finally {
  cache.close();
  api.close();
}
