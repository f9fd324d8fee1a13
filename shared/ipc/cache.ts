/** Schemas of the `cache.*` channels: where the data lives, how big each profile's cache is, and clearing one. */
import { z } from 'zod';
import type { DomainSchemas } from './contract';

export const cacheStatus = z.object({
  profileId: z.string(),
  /** ISO UTC end of the newest finished settlement sync; null before the first. */
  settlementsSyncedAt: z.string().nullable(),
  /** ISO UTC time of the newest balance snapshot; null before the first refresh. */
  balancesAt: z.string().nullable(),
});

export const cacheChannels = {
  'cache.list': {
    input: z.undefined(),
    output: z.object({
      dataDir: z.string(),
      caches: z.array(z.object({ profileId: z.string(), file: z.string(), sizeBytes: z.number().int().nonnegative() })),
    }),
  },
  /** The active profile's "last synced" times, for the status bar. */
  'cache.status': { input: z.undefined(), output: cacheStatus },
  /** Deletes a profile's cache file; refused while a sync or an export uses it. */
  'cache.clear': {
    input: z.object({ profileId: z.string().min(1).max(64) }).strict(),
    output: z.object({ cleared: z.boolean(), freedBytes: z.number().int().nonnegative() }),
  },
} satisfies DomainSchemas<'cache'>;
