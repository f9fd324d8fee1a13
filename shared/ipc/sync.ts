/**
 * Schemas of the `sync.*` channels and the sync events. A sync runs in the background of the main process:
 * `sync.start` answers at once with a job id, progress arrives as `syncProgress` events, and the end (or the
 * failure) as one `syncFinished` event.
 */
import { z } from 'zod';
import { syncProgress, syncRequest, syncSummary } from '../sync';
import type { DomainSchemas } from './contract';

const jobId = z.string().min(1).max(64);

export const syncChannels = {
  'sync.start': { input: syncRequest, output: z.object({ jobId }) },
  'sync.cancel': { input: z.object({ jobId }).strict(), output: z.object({ cancelled: z.boolean() }) },
} satisfies DomainSchemas<'sync'>;

export const syncProgressEvent = syncProgress.extend({ jobId, profileId: z.string() });

/**
 * The search and sort keys a sync writes after it has answered are in (or their writing stopped: the rest waits for
 * the next sync). The cache's size changed; what it holds did not.
 */
export const syncKeysWrittenEvent = z.object({ profileId: z.string() });

export const syncFinishedEvent = z.object({
  jobId,
  profileId: z.string(),
  /** Null when the sync could not run at all (no secret, keychain locked); `error` says why. */
  summary: syncSummary.nullable(),
  error: z.string().optional(),
});
