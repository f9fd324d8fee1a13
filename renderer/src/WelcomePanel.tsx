import { useAppInfo } from './app-info-store';
import { EnvironmentBadge } from './EnvironmentBadge';

export function WelcomePanel() {
  const state = useAppInfo((store) => store.state);

  return (
    <section className="panel welcome" aria-labelledby="welcome-title">
      <h1 id="welcome-title">Welcome to Payout Console</h1>
      {state.status === 'loading' && <p className="muted">Connecting to the console…</p>}
      {state.status === 'failed' && (
        <p className="error" role="alert">
          Could not read the active profile: {state.error.message}
        </p>
      )}
      {state.status === 'ready' && (
        <dl className="facts">
          <dt>Profile</dt>
          <dd>{state.value.profile.name}</dd>
          <dt>Environment</dt>
          <dd>
            <EnvironmentBadge environment={state.value.profile.environment} />
          </dd>
          <dt>Base URL</dt>
          <dd className="mono">{state.value.profile.baseUrl}</dd>
          <dt>Version</dt>
          <dd className="mono">{state.value.appVersion}</dd>
        </dl>
      )}
    </section>
  );
}
