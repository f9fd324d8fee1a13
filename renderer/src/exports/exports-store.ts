/**
 * Exports started from any screen: one job per kind at a time (settlements, beneficiaries, payout lookups,
 * balances), followed from the start call to its finished event, with cancel and "Show in folder". Main writes
 * the file from the cache; the renderer only says what to export.
 */
import { create } from 'zustand';
import type { ExportFormat, ExportKind } from '../../../shared/exports';
import type { IpcEventPayload, IpcInput } from '../../../shared/ipc/contract';
import { api, settle } from '../api';
import type { Failure } from '../loadable';
import { createJobFollower } from '../ui/job-follower';

type ExportProgressEvent = IpcEventPayload<'exportProgress'>;
type ExportFinishedEvent = IpcEventPayload<'exportFinished'>;
export type ExportRequest = IpcInput<'exports.start'>;

export type ExportJob =
  | { phase: 'idle' }
  | { phase: 'starting'; format: ExportFormat }
  | {
      phase: 'running';
      jobId: string;
      format: ExportFormat;
      file: string | null;
      progress: ExportProgressEvent | null;
      cancelling: boolean;
    }
  | { phase: 'finished'; jobId: string; result: ExportFinishedEvent };

const IDLE: ExportJob = { phase: 'idle' };

interface ExportsStore {
  jobs: Partial<Record<ExportKind, ExportJob>>;
  errors: Partial<Record<ExportKind, Failure | null>>;
  start(request: ExportRequest): Promise<void>;
  cancel(kind: ExportKind): Promise<void>;
  reveal(kind: ExportKind): Promise<void>;
  dismiss(kind: ExportKind): void;
}

export const isExporting = (job: ExportJob | undefined) => job?.phase === 'starting' || job?.phase === 'running';

export const useExports = create<ExportsStore>()((set, get) => {
  const job = (kind: ExportKind): ExportJob => get().jobs[kind] ?? IDLE;
  const put = (kind: ExportKind, next: ExportJob, error?: Failure | null) =>
    set((s) => ({
      jobs: { ...s.jobs, [kind]: next },
      ...(error === undefined ? {} : { errors: { ...s.errors, [kind]: error } }),
    }));

  // One follower per kind, made on first use: each follows the one job of its kind.
  const followers = new Map<ExportKind, ReturnType<typeof createJobFollower>>();
  const followerOf = (kind: ExportKind) => {
    let follower = followers.get(kind);
    if (!follower) {
      const ofKind =
        <E extends { kind: ExportKind }>(subscribe: (listener: (e: E) => void) => () => void) =>
        (listener: (e: E) => void) =>
          subscribe((e) => {
            if (e.kind === kind) listener(e);
          });
      follower = createJobFollower(
        { progress: ofKind(api.on.exportProgress), finished: ofKind(api.on.exportFinished) },
        {
          progress(event) {
            const now = job(kind);
            if (now.phase === 'running') put(kind, { ...now, progress: event });
          },
          finished(event) {
            put(kind, { phase: 'finished', jobId: event.jobId, result: event });
          },
        },
      );
      follower.listen();
      followers.set(kind, follower);
    }
    return follower;
  };

  return {
    jobs: {},
    errors: {},

    async start(request) {
      const { kind, format } = request;
      if (isExporting(job(kind))) return;
      const follower = followerOf(kind);
      put(kind, { phase: 'starting', format }, null);
      follower.starting();
      const result = await settle(() => api.exports.start(request));
      if (!result.ok || result.value.jobId === null) {
        // No job id and no error: the user dismissed the save dialog, which is not a failure.
        follower.started(null);
        put(kind, IDLE, result.ok ? null : { error: result.error, retry: () => void get().start(request) });
        return;
      }
      const { jobId, file } = result.value;
      put(kind, { phase: 'running', jobId, format, file, progress: null, cancelling: false });
      follower.started(jobId);
    },

    async cancel(kind) {
      const now = job(kind);
      if (now.phase !== 'running' || now.cancelling) return;
      put(kind, { ...now, cancelling: true }, null);
      const result = await settle(() => api.exports.cancel({ jobId: now.jobId }));
      if (!result.ok) {
        const later = job(kind);
        put(kind, later.phase === 'running' ? { ...later, cancelling: false } : later, {
          error: result.error,
          retry: () => void get().cancel(kind),
        });
      }
    },

    async reveal(kind) {
      const now = job(kind);
      if (now.phase !== 'finished') return;
      const retry = () => void get().reveal(kind);
      put(kind, now, null);
      const result = await settle(() => api.exports.reveal({ jobId: now.jobId }));
      if (!result.ok) put(kind, now, { error: result.error, retry });
      else if (!result.value.revealed) {
        const message = 'The file could not be shown: it may have been moved or deleted since it was written.';
        put(kind, now, { error: { code: 'NOT_REVEALED', message }, retry });
      }
    },

    dismiss: (kind) => put(kind, IDLE, null),
  };
});
