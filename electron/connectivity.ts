/**
 * Online or offline, learnt from real request outcomes rather than from the OS: the OS may say "connected" on
 * a hotel network that reaches nothing. A request the service answered (even with an error) means online; one
 * that could not reach it (refused, DNS, timeout, TLS) means offline.
 */
import type { RequestEvent } from './api/client';
import type { Connectivity } from '../shared/ipc/app';

const UNREACHABLE = new Set(['network', 'timeout', 'tls']);

export function createConnectivity(onChange: (state: Connectivity) => void, now: () => Date = () => new Date()) {
  let current: Connectivity = { state: 'unknown', since: null };

  function set(next: Connectivity) {
    const changed = next.state !== current.state || next.reason !== current.reason;
    current = next;
    if (changed) onChange(current);
  }

  return {
    current: () => current,
    /** Feed every request outcome here (the API client's `onEvent`). */
    record(event: RequestEvent): void {
      if (event.outcome === 'retry') return;
      const unreachable =
        event.outcome === 'error' && event.errorKind !== undefined && UNREACHABLE.has(event.errorKind);
      set(
        unreachable
          ? {
              state: 'offline',
              since: now().toISOString(),
              reason: event.userMessage ?? 'The service could not be reached.',
            }
          : { state: 'online', since: now().toISOString() },
      );
    },
  };
}
export type ConnectivityTracker = ReturnType<typeof createConnectivity>;
