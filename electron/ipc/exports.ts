/** Handlers of the `exports.*` channels: exports of the active profile's cache. */
import type { ExportJobs } from '../export/jobs';
import type { ProfileStore } from '../profiles/profile-store';
import type { IpcHandlers } from './router';

export function createExportHandlers(
  jobs: ExportJobs,
  profiles: ProfileStore,
): Pick<IpcHandlers, 'exports.start' | 'exports.cancel' | 'exports.reveal'> {
  return {
    'exports.start': (request) => jobs.start(profiles.active().id, request),
    'exports.cancel': ({ jobId }) => ({ cancelled: jobs.cancel(jobId) }),
    'exports.reveal': ({ jobId }) => ({ revealed: jobs.reveal(jobId) }),
  };
}
