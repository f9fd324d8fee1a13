/**
 * Schemas of the `exports.*` channels and events. An export runs in the background: `exports.start` answers
 * with a job id and the file it will write, progress arrives as `exportProgress` events and the end as one
 * `exportFinished`. `exports.reveal` shows a finished export in the OS file manager; it takes a job id, never a
 * path, so the renderer cannot point the shell at arbitrary files.
 */
import { z } from 'zod';
import { exportProgress, exportRequest, exportResult } from '../exports';
import type { DomainSchemas } from './contract';

const jobId = z.string().min(1).max(64);

export const exportsChannels = {
  'exports.start': {
    input: exportRequest,
    /** `file` is null when the user dismissed the save dialog; nothing was started then. */
    output: z.object({ jobId: jobId.nullable(), file: z.string().nullable() }),
  },
  'exports.cancel': { input: z.object({ jobId }).strict(), output: z.object({ cancelled: z.boolean() }) },
  'exports.reveal': { input: z.object({ jobId }).strict(), output: z.object({ revealed: z.boolean() }) },
} satisfies DomainSchemas<'exports'>;

export const exportProgressEvent = exportProgress.extend({ jobId, profileId: z.string() });
export const exportFinishedEvent = exportResult.extend({ jobId, profileId: z.string() });
