/**
 * Schemas of the `cache.*` channels: where the data lives, how big each profile's cache is, clearing one, and whether
 * its recent dates still hold what the API sent.
 */
import { z } from 'zod';
import { cacheVerifyResult } from '../cache-verify';
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
  /**
   * The active profile's most recent synced dates held against their digests and rows (settlement-verify.ts): what
   * the Settlements screen's mismatch banner shows. Asked afresh each time; the whole cache is `cache verify`'s.
   */
  'cache.integrity': { input: z.undefined(), output: cacheVerifyResult },
} satisfies DomainSchemas<'cache'>;
