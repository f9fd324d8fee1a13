import { EnvironmentBadge } from './EnvironmentBadge';
import { screenById, type Screen } from './navigation/screens';
import { useAppInfo, useCacheStatus } from './query/app-queries';
import { useProfiles } from './settings/settings-queries';

/** What the desk should do next, from what the cache and the profiles say: sync first, then go to production. */
function NextStep({ onOpen }: { onOpen(screen: Screen): void }) {
  const status = useCacheStatus();
  const profiles = useProfiles();
  const settlements = screenById('settlements');
  const settings = screenById('settings');
  if (status.isPending || profiles.isPending) return null;
  const neverSynced = status.data?.settlementsSyncedAt === null;
  const noProduction = profiles.data ? !profiles.data.profiles.some((p) => p.environment === 'production') : false;
  if (!neverSynced && !noProduction) return null;
  return (
    <section className="next-step" aria-labelledby="next-step-title">
      <h2 id="next-step-title">Next step</h2>
      <ol>
        {neverSynced && settlements && (
          <li>
            Sync settlements, so they can be reviewed and reconciled offline.{' '}
            <button type="button" className="button button-primary" onClick={() => onOpen(settlements)}>
              Go to Settlements
            </button>
          </li>
        )}
        {noProduction && settings && (
          <li>
            Add a production profile with your merchant key; its secret stays in the OS keychain.{' '}
            <button type="button" className="button" onClick={() => onOpen(settings)}>
              Go to Settings
            </button>
          </li>
        )}
      </ol>
    </section>
  );
}

export function WelcomePanel({ onOpen }: { onOpen(screen: Screen): void }) {
  const info = useAppInfo();

  return (
    <section className="panel welcome" aria-labelledby="welcome-title">
      <h1 id="welcome-title">Welcome to Payout Console</h1>
      {info.isPending && <p className="muted">Connecting to the console…</p>}
      {info.isError && (
        <p className="error" role="alert">
          Could not read the active profile: {info.error.message}
        </p>
      )}
      {info.data && (
        <>
          <dl className="facts">
            <dt>Profile</dt>
            <dd>{info.data.profile.name}</dd>
            <dt>Environment</dt>
            <dd>
              <EnvironmentBadge environment={info.data.profile.environment} />
            </dd>
            <dt>Base URL</dt>
            <dd className="mono">{info.data.profile.baseUrl}</dd>
            <dt>Version</dt>
            <dd className="mono">{info.data.appVersion}</dd>
          </dl>
          <NextStep onOpen={onOpen} />
          <p className="muted">
            Press <kbd>?</kbd> for keyboard shortcuts.
          </p>
        </>
      )}
    </section>
  );
}
