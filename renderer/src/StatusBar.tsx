import { useAppInfo } from './app-info-store';
import { EnvironmentBadge } from './EnvironmentBadge';

export function StatusBar() {
  const state = useAppInfo((store) => store.state);

  return (
    <footer className="status-bar">
      {state.status === 'ready' ? (
        <>
          <EnvironmentBadge environment={state.info.profile.environment} />
          <span>{state.info.profile.name}</span>
          <span className="mono muted">{state.info.profile.baseUrl}</span>
          <span className="spacer" />
          <span className="mono muted">v{state.info.appVersion}</span>
        </>
      ) : (
        <span className="muted">{state.status === 'loading' ? 'Connecting…' : 'No active profile'}</span>
      )}
    </footer>
  );
}
