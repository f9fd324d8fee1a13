import { useEffect } from 'react';
import { epochMsToIstDate } from '../../shared/time';
import { useAppInfo } from './app-info-store';
import { useCacheStatus, type CacheStatus } from './cache-status-store';
import { useConnectivity } from './connectivity-store';
import { EnvironmentBadge } from './EnvironmentBadge';
import { formatIstInstant } from './ui/format';
import './status-bar.css';

const TIME = new Intl.DateTimeFormat('en-IN', { timeStyle: 'medium', timeZone: 'Asia/Kolkata' });

/** Today's times without the date, to keep the bar short; any other day's with it, so none passes for today's. */
function shortIst(iso: string): string {
  const at = new Date(iso);
  return epochMsToIstDate(at.getTime()) === epochMsToIstDate(Date.now())
    ? `${TIME.format(at)} IST`
    : formatIstInstant(iso);
}

function ConnectivityIndicator() {
  const follow = useConnectivity((store) => store.follow);
  const state = useConnectivity((store) => store.state);
  useEffect(() => follow(), [follow]);

  const since = state?.since ? ` since ${TIME.format(new Date(state.since))} IST` : '';
  const [tone, text] =
    state === null || state.state === 'unknown'
      ? ['unknown', 'Connection not checked yet']
      : state.state === 'online'
        ? ['online', `Online${since}`]
        : ['offline', `Offline${since}: ${state.reason ?? 'the service could not be reached.'}`];
  return (
    <span className={`connectivity connectivity-${tone}`} role="status">
      <span className="dot" aria-hidden="true" />
      {text}
    </span>
  );
}

function syncedText({ settlementsSyncedAt, balancesAt }: CacheStatus): { text: string; full: string } {
  const balances = balancesAt ? `balances ${shortIst(balancesAt)}` : 'balances not fetched yet';
  const fullBalances = balancesAt ? `balances fetched ${formatIstInstant(balancesAt)}` : 'balances not fetched yet';
  if (settlementsSyncedAt === null) {
    return {
      text: balancesAt ? `Settlements not synced yet · ${balances}` : 'Settlements not synced yet',
      full: `Settlements not synced yet; ${fullBalances}`,
    };
  }
  return {
    text: `Last synced: settlements ${shortIst(settlementsSyncedAt)} · ${balances}`,
    full: `Settlements synced ${formatIstInstant(settlementsSyncedAt)}; ${fullBalances}`,
  };
}

/** Quiet on purpose: the environment badge stays the loudest thing in the bar. */
function LastSynced() {
  const follow = useCacheStatus((store) => store.follow);
  const status = useCacheStatus((store) => store.status);
  useEffect(() => follow(), [follow]);

  if (status.status === 'loading') return null;
  if (status.status === 'failed') {
    const text = `Last synced: unknown. ${status.error.message}`;
    return (
      <span className="last-synced last-synced-failed" title={text}>
        {text}
      </span>
    );
  }
  const { text, full } = syncedText(status.value);
  return (
    <span className="last-synced muted" title={full}>
      {text}
    </span>
  );
}

export function StatusBar() {
  const state = useAppInfo((store) => store.state);
  const environment = state.status === 'ready' ? state.value.profile.environment : null;

  return (
    <footer className={`status-bar${environment === 'production' ? ' status-production' : ''}`}>
      {state.status === 'ready' ? (
        <>
          <EnvironmentBadge environment={state.value.profile.environment} />
          <span className="status-profile">
            <span className="sr-only">Active profile: </span>
            {state.value.profile.name}
          </span>
          <span className="mono muted">{state.value.profile.baseUrl}</span>
        </>
      ) : (
        <span className="muted">{state.status === 'loading' ? 'Connecting…' : 'No active profile'}</span>
      )}
      <span className="spacer" />
      {state.status === 'ready' && <LastSynced />}
      <ConnectivityIndicator />
      {state.status === 'ready' && <span className="mono muted">v{state.value.appVersion}</span>}
    </footer>
  );
}
