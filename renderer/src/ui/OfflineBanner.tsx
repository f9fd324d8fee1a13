import { useAppInfo, useCheckConnection, useConnectivity } from '../query/app-queries';
import { formatIstInstant } from '../../../shared/format';

/**
 * Shown on every data view while the service cannot be reached: what the screen shows is the cache, and the
 * actions that need the service are disabled with the reason on hover. "Check connection" makes the connection
 * test's two safe calls; connectivity follows their outcome (an event from main), and an answer enables the
 * actions again. `brief` leaves the reason to the status bar's alerts, so a screen that lives by its rows
 * (Settlements) gives the banner one line.
 */
export function OfflineBanner({ brief = false }: { brief?: boolean }) {
  const state = useConnectivity();
  const profileId = useAppInfo().data?.profile.id;
  const check = useCheckConnection();
  if (state?.state !== 'offline') return null;
  return (
    <div className="notice notice-warning offline-banner" role="status">
      <span>
        <strong>Offline</strong>
        {state.since ? ` since ${formatIstInstant(state.since)}` : ''}: showing cached data.{' '}
        {brief
          ? 'Actions that need the service are paused; the status bar’s alerts say why.'
          : `${state.reason ?? ''} Actions that need the service are paused until it answers again.`}
      </span>
      {profileId && (
        <button type="button" className="button" disabled={check.isPending} onClick={() => check.mutate({ profileId })}>
          {check.isPending ? 'Checking…' : 'Check connection'}
        </button>
      )}
    </div>
  );
}
