/**
 * Settlement syncs started from the UI: one at a time per profile, in the background of the main process,
 * cancellable, reporting through the event bus. The CLI calls `syncSettlements` directly instead.
 */
import { randomUUID } from 'node:crypto';
import { futureDatesProblem, type SyncRequest, type SyncSummary } from '../../shared/sync';
import { epochMsToIstDate } from '../../shared/time';
import type { Cache } from '../cache/database';
import type { EventBus } from '../ipc/events';
import type { Journals } from '../journal/registry';
import { journalSync } from '../journal/syncs';
import type { Logger } from '../log';
import type { Credentials } from '../profiles/credentials';
import { sortKeysAsDatesClose, syncSettlements, writeKeysAfter } from './settlement-sync';

export class SyncJobError extends Error {
  override name = 'SyncJobError';
  constructor(
    message: string,
    readonly code: 'SYNC_RUNNING' | 'SYNC_FUTURE_DATES',
  ) {
    super(message);
  }
}

interface Job {
  profileId: string;
  controller: AbortController;
}

export function createSyncJobs(deps: {
  credentials: Credentials;
  cacheFor: (profileId: string) => Cache;
  /** The profile's pages at once: a deployment that limits requests sets fewer. */
  concurrencyOf: (profileId: string) => number;
  journals: Journals;
  events: EventBus;
  log: Logger;
  /** The clock (epoch ms): what "today" is, in IST. */
  now: () => number;
  /** After a sync has stored its dates: a desk profile publishes their exceptions and batches. */
  afterSync?: (profileId: string, summary: SyncSummary) => Promise<unknown>;
}) {
  const jobs = new Map<string, Job>();

  async function run(jobId: string, profileId: string, request: SyncRequest, signal: AbortSignal) {
    const api = deps.credentials.api(profileId);
    const keysNotWritten = (e: unknown) => deps.log.warn('sort keys not written', { profileId, error: e });
    const sortKeys = sortKeysAsDatesClose(deps.cacheFor(profileId), keysNotWritten);
    try {
      const summary = await syncSettlements({
        api,
        cache: deps.cacheFor(profileId),
        ...request,
        concurrency: deps.concurrencyOf(profileId),
        signal,
        onProgress: (p) => {
          deps.events.emit('syncProgress', { ...p, jobId, profileId });
          sortKeys(p);
        },
      });
      journalSync(deps.journals.for(profileId), request, { summary });
      await deps.afterSync?.(profileId, summary);
      deps.events.emit('syncFinished', { jobId, profileId, summary });
    } catch (e) {
      // Whatever stopped the whole sync (no secret, a locked keychain) reaches the UI as a sentence.
      const error = e instanceof Error ? e.message : String(e);
      deps.log.warn('sync failed', { jobId, profileId, error: e });
      try {
        journalSync(deps.journals.for(profileId), request, { error });
      } catch (journalError) {
        deps.log.warn('sync not journaled', { jobId, profileId, error: journalError });
      }
      deps.events.emit('syncFinished', { jobId, profileId, summary: null, error });
    } finally {
      api.close();
      jobs.delete(jobId);
    }
    try {
      await writeKeysAfter(deps.cacheFor(profileId), 'worker');
    } catch (e) {
      // Searching and sorting stay exact without them; the next sync tries again.
      deps.log.warn('search and sort keys not written', { profileId, error: e });
    }
    // Told either way: some dates' keys may be in, and the cache's size shown in Settings is then out of date.
    deps.events.emit('syncKeysWritten', { profileId });
  }

  const isRunning = (profileId: string) => [...jobs.values()].some((j) => j.profileId === profileId);

  return {
    start(profileId: string, request: SyncRequest): string {
      if (isRunning(profileId)) {
        throw new SyncJobError(
          'A settlement sync is already running for this profile. Wait for it or cancel it.',
          'SYNC_RUNNING',
        );
      }
      const future = futureDatesProblem(request, epochMsToIstDate(deps.now()));
      if (future) throw new SyncJobError(future, 'SYNC_FUTURE_DATES');
      const jobId = randomUUID();
      const controller = new AbortController();
      jobs.set(jobId, { profileId, controller });
      void run(jobId, profileId, request, controller.signal);
      return jobId;
    },
    cancel(jobId: string): boolean {
      const job = jobs.get(jobId);
      if (!job) return false;
      job.controller.abort();
      return true;
    },
    isRunning,
    /** Cancels every running sync, for shutdown. */
    cancelAll(): void {
      for (const job of jobs.values()) job.controller.abort();
    },
  };
}
export type SyncJobs = ReturnType<typeof createSyncJobs>;
