import { useEffect } from 'react';
import { useAppInfo } from './app-info-store';
import { useConnectivity } from './connectivity-store';
import { EnvironmentBadge } from './EnvironmentBadge';

const TIME = new Intl.DateTimeFormat('en-IN', { timeStyle: 'medium', timeZone: 'Asia/Kolkata' });

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

export function StatusBar() {
  const state = useAppInfo((store) => store.state);
  const environment = state.status === 'ready' ? state.info.profile.environment : null;

  return (
    <footer className={`status-bar${environment === 'production' ? ' status-production' : ''}`}>
      {state.status === 'ready' ? (
        <>
          <EnvironmentBadge environment={state.info.profile.environment} />
          <span className="status-profile">
            <span className="sr-only">Active profile: </span>
            {state.info.profile.name}
          </span>
          <span className="mono muted">{state.info.profile.baseUrl}</span>
        </>
      ) : (
        <span className="muted">{state.status === 'loading' ? 'Connecting…' : 'No active profile'}</span>
      )}
      <span className="spacer" />
      <ConnectivityIndicator />
      {state.status === 'ready' && <span className="mono muted">v{state.info.appVersion}</span>}
    </footer>
  );
}
