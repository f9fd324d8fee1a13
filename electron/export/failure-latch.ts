/**
 * The first failure of a streaming writer and the waits it ends. A writer waits on stream events ('drain', its
 * output closing); when anything fails, every pending wait rejects with that first failure, before the streams are
 * destroyed, so callers see the cause rather than the premature close that destroying provokes.
 */
import type { EventEmitter } from 'node:events';

export function createFailureLatch(destroy: () => void) {
  let failure: Error | undefined;
  const waiters = new Set<(error: Error) => void>();

  /** Resolves when `register` signals, rejects with the writer's failure if that comes first. */
  function until(register: (done: () => void) => () => void): Promise<void> {
    if (failure) return Promise.reject(failure);
    return new Promise<void>((resolve, reject) => {
      const onFailure = (error: Error) => {
        unregister();
        reject(error);
      };
      const unregister = register(() => {
        waiters.delete(onFailure);
        unregister();
        resolve();
      });
      waiters.add(onFailure);
    });
  }

  return {
    get failure(): Error | undefined {
      return failure;
    },
    /** Records the first failure, rejects every pending wait with it, then destroys the streams. */
    fail(error: Error): void {
      if (failure) return;
      failure = error;
      for (const reject of waiters) reject(error);
      waiters.clear();
      destroy();
    },
    until,
    untilEvent: (emitter: EventEmitter, event: string) =>
      until((done) => {
        emitter.once(event, done);
        return () => emitter.off(event, done);
      }),
  };
}
