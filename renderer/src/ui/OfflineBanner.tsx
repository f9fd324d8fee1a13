import { useConnectivity } from '../connectivity-store';
import { formatIstInstant } from './format';

/**
 * Shown on every data view while the service cannot be reached: what the screen shows is the cache, and the
 * actions that need the service will say so. Connectivity follows real request outcomes, so the banner goes
 * away by itself after the next request that gets an answer.
 */
export function OfflineBanner() {
  const state = useConnectivity((store) => store.state);
  if (state?.state !== 'offline') return null;
  return (
    <div className="notice notice-warning offline-banner" role="status">
      <strong>Offline</strong>
      {state.since ? ` since ${formatIstInstant(state.since)}` : ''}: showing cached data. {state.reason ?? ''} Actions
      that need the service will try again when you ask.
    </div>
  );
}
