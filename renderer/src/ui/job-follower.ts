/**
 * Follows one background job of main (a sync, an export) from its start call to its finished event.
 *
 * The start call answers with the job's id, and progress arrives as events on another path; an event can
 * overtake that answer (a sync of dates already cached finishes in a few milliseconds). So while a start is on
 * its way, events of ids not known yet are held, and handed over in order once the answer names the job.
 * Any screen that starts a job follows it with this: the settlement sync, every export.
 */

interface JobEvent {
  jobId: string;
}

type Subscribe<E> = (listener: (event: E) => void) => () => void;

/** Events held while a start is on its way; far more than one job emits before its start call answers. */
const HELD_MAX = 64;

export function createJobFollower<P extends JobEvent, F extends JobEvent>(
  events: { progress: Subscribe<P>; finished: Subscribe<F> },
  deliver: { progress(event: P): void; finished(event: F): void },
) {
  let following: string | null = null;
  let starting = false;
  let held: ({ kind: 'progress'; event: P } | { kind: 'finished'; event: F })[] = [];
  let subscribed = false;

  const onProgress = (event: P) => {
    if (event.jobId === following) deliver.progress(event);
    else if (starting && held.length < HELD_MAX) held.push({ kind: 'progress', event });
  };
  const onFinished = (event: F) => {
    if (event.jobId === following) {
      following = null;
      deliver.finished(event);
    } else if (starting && held.length < HELD_MAX) held.push({ kind: 'finished', event });
  };

  return {
    /** Subscribes once; the follower lives as long as the page. */
    listen(): void {
      if (subscribed) return;
      subscribed = true;
      events.progress(onProgress);
      events.finished(onFinished);
    },
    /** A start call is about to be made. */
    starting(): void {
      starting = true;
      held = [];
    },
    /** The start call answered with `jobId` (null: nothing was started). */
    started(jobId: string | null): void {
      starting = false;
      following = jobId;
      const early = held.filter((h) => h.event.jobId === jobId);
      held = [];
      for (const h of early) {
        if (h.kind === 'progress') onProgress(h.event);
        else onFinished(h.event);
      }
    },
  };
}
