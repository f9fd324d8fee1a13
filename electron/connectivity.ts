/**
 * Online or offline, learnt from real request outcomes rather than from the OS: the OS may say "connected" on
 * a hotel network that reaches nothing. A request the service answered (even with an error) means online; one
 * that could not reach it (refused, DNS, timeout, TLS) means offline.
 *
 * Kept per profile: each profile has its own service, so what the sandbox answered says nothing about a
 * production profile. A profile no request has gone to yet is "unknown" (not contacted yet), and `current()`
 * is always the active profile's.
 */
import type { RequestEvent } from './api/client';
import { UNREACHABLE_KINDS } from './api/errors';
import type { Connectivity } from '../shared/ipc/app';

const NOT_CONTACTED: Connectivity = { state: 'unknown', since: null };

export function createConnectivity(
  onChange: (state: Connectivity) => void,
  now: () => Date,
  activeProfileId: () => string,
) {
  const byProfile = new Map<string, Connectivity>();
  const of = (profileId: string) => byProfile.get(profileId) ?? NOT_CONTACTED;

  return {
    /** The active profile's state. */
    current: () => of(activeProfileId()),
    /** A profile's state, whether or not it is the active one. */
    of,
    /** Feed every request outcome here with the profile it was made for (the API client's `onEvent`). */
    record(event: RequestEvent, profileId: string): void {
      if (event.outcome === 'retry') return;
      const unreachable =
        event.outcome === 'error' && event.errorKind !== undefined && UNREACHABLE_KINDS.has(event.errorKind);
      const next: Connectivity = unreachable
        ? {
            state: 'offline',
            since: now().toISOString(),
            reason: event.userMessage ?? 'The service could not be reached.',
          }
        : { state: 'online', since: now().toISOString() };
      const before = of(profileId);
      byProfile.set(profileId, next);
      const changed = next.state !== before.state || next.reason !== before.reason;
      // The status bar speaks of the active profile only.
      if (changed && profileId === activeProfileId()) onChange(next);
    },
    /** A profile's address or key changed: what its old service answered no longer says anything. */
    forget(profileId: string): void {
      byProfile.delete(profileId);
      if (profileId === activeProfileId()) onChange(NOT_CONTACTED);
    },
    /** The active profile changed: its own state (not contacted yet, if no request went to it). */
    announce(): void {
      onChange(of(activeProfileId()));
    },
  };
}
export type ConnectivityTracker = ReturnType<typeof createConnectivity>;
