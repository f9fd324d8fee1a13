import type { IpcOutput } from '../../shared/ipc/contract';
import { HeadroomAlert } from './accounts/HeadroomAlert';
import { ApprovalsIndicator } from './approvals/ApprovalsIndicator';
import { EnvironmentBadge } from './EnvironmentBadge';
import { DeskIndicator } from './exceptions/DeskLine';
import { WatchIndicator } from './payouts/WatchIndicator';
import { useAppInfo, useCacheStatus, useConnectivity } from './query/app-queries';
import { formatIstInstant } from './ui/format';
import { asSentence } from '../../shared/messages';
import './status-bar.css';

export type CacheStatus = IpcOutput<'cache.status'>;

type Connectivity = ReturnType<typeof useConnectivity>;

/** The connectivity indicator's tone and words. */
export function connectivityText(state: Connectivity): [tone: string, text: string] {
  const since = state?.since ? ` since ${formatIstInstant(state.since)}` : '';
  return state === null || state.state === 'unknown'
    ? ['unknown', 'Not contacted yet']
    : state.state === 'online'
      ? ['online', `Online${since}`]
      : ['offline', `Offline${since}: ${asSentence(state.reason ?? 'the service could not be reached')}`];
}

function ConnectivityIndicator() {
  const [tone, text] = connectivityText(useConnectivity());
  return (
    <span className={`connectivity connectivity-${tone}`} role="status" data-testid="connectivity">
      <span className="dot" aria-hidden="true" />
      {text}
    </span>
  );
}

export function syncedText({ settlementsSyncedAt, balancesAt }: CacheStatus): string {
  const balances = balancesAt ? `balances ${formatIstInstant(balancesAt)}` : 'balances not fetched yet';
  if (settlementsSyncedAt === null) {
    return balancesAt ? `Settlements not synced yet · ${balances}` : 'Settlements not synced yet';
  }
  return `Last synced: settlements ${formatIstInstant(settlementsSyncedAt)} · ${balances}`;
}

/** Quiet on purpose: the environment badge stays the loudest thing in the bar. */
function LastSynced() {
  const status = useCacheStatus();
  if (status.isPending) return null;
  if (status.isError) {
    const text = `Last synced: unknown. ${status.error.message}`;
    return (
      <span className="last-synced last-synced-failed" title={text}>
        {text}
      </span>
    );
  }
  const text = syncedText(status.data);
  return (
    <span className="last-synced muted" title={text}>
      {text}
    </span>
  );
}

export function StatusBar() {
  const info = useAppInfo();
  const profile = info.data?.profile;

  return (
    <footer className={`status-bar${profile?.environment === 'production' ? ' status-production' : ''}`}>
      {profile ? (
        <>
          <EnvironmentBadge environment={profile.environment} />
          <span className="status-profile">
            <span className="sr-only">Active profile: </span>
            {profile.name}
          </span>
          <span className="mono muted">{profile.baseUrl}</span>
        </>
      ) : (
        <span className="muted">{info.isPending ? 'Connecting…' : 'No active profile'}</span>
      )}
      <span className="spacer" />
      {profile && <HeadroomAlert />}
      {profile && <WatchIndicator />}
      {profile && <ApprovalsIndicator />}
      {profile && <DeskIndicator />}
      {profile && <LastSynced />}
      <ConnectivityIndicator />
      {info.data && <span className="mono muted">v{info.data.appVersion}</span>}
    </footer>
  );
}
