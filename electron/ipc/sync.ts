/** Handlers of the `sync.*` channels: syncs run for the active profile. */
import type { ProfileStore } from '../profiles/profile-store';
import type { SyncJobs } from '../sync/jobs';
import type { IpcHandlers } from './router';

export function createSyncHandlers(
  jobs: SyncJobs,
  profiles: ProfileStore,
): Pick<IpcHandlers, 'sync.start' | 'sync.cancel'> {
  return {
    'sync.start': (request) => ({ jobId: jobs.start(profiles.active().id, request) }),
    'sync.cancel': ({ jobId }) => ({ cancelled: jobs.cancel(jobId) }),
  };
}
