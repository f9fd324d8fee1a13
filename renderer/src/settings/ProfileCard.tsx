import { useId, useState } from 'react';
import { ErrorNotice } from '../ui/states';
import type { IpcError } from '../../../shared/ipc/contract';
import { ConfirmDialog } from '../ConfirmDialog';
import { EnvironmentBadge } from '../EnvironmentBadge';
import { CredentialsRow } from './CredentialsRow';
import { HASH_SCHEME_LABELS } from './profile-form';
import { ProfileForm } from './ProfileForm';
import { resultOf } from '../query/ipc-query';
import { useProfileChange, type Profile } from './settings-queries';

function ProfileFacts({ profile }: { profile: Profile }) {
  return (
    <dl className="profile-facts">
      <dt className="fact-label">Base URL</dt>
      <dd className="mono">{profile.baseUrl}</dd>
      <dt className="fact-label">AI URL</dt>
      <dd className="mono">{profile.aiUrl}</dd>
      <dt className="fact-label">Merchant key</dt>
      <dd className="mono">{profile.key}</dd>
      <dt className="fact-label">Hash scheme</dt>
      <dd>{HASH_SCHEME_LABELS[profile.hashScheme]}</dd>
      <dt className="fact-label">Pages at once</dt>
      <dd>{profile.syncConcurrency}</dd>
    </dl>
  );
}

export function ProfileCard({ profile, active }: { profile: Profile; active: boolean }) {
  const activate = useProfileChange('profiles.activate');
  const remove = useProfileChange('profiles.remove');
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [confirmingSwitch, setConfirmingSwitch] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);
  const nameId = useId();

  async function run(action: () => Promise<unknown>) {
    const result = await resultOf(action());
    setError(result.ok ? null : result.error);
  }

  return (
    <article
      className={`profile-card profile-${profile.environment}${active ? ' profile-active' : ''}`}
      aria-labelledby={nameId}
    >
      <header className="profile-head">
        <h3 id={nameId}>{profile.name}</h3>
        <EnvironmentBadge environment={profile.environment} />
        {active && <span className="tag tag-active">Active</span>}
        {profile.builtIn && <span className="tag">Built-in, read-only</span>}
        <span className="spacer" />
        {!active && (
          <button
            type="button"
            className="button"
            onClick={() =>
              // Every screen then acts on real money: that switch is never one stray click.
              profile.environment === 'production'
                ? setConfirmingSwitch(true)
                : void run(() => activate.mutateAsync({ id: profile.id }))
            }
          >
            Activate
          </button>
        )}
        {!profile.builtIn && !editing && (
          <button type="button" className="button" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
        {!profile.builtIn && (
          <button type="button" className="button button-quiet-danger" onClick={() => setConfirming(true)}>
            Remove…
          </button>
        )}
      </header>
      {editing ? (
        <ProfileForm profile={profile} onDone={() => setEditing(false)} />
      ) : (
        <ProfileFacts profile={profile} />
      )}
      <CredentialsRow profile={profile} />
      {error && <ErrorNotice error={error} />}
      {confirmingSwitch && (
        <ConfirmDialog
          title={`Switch to the production profile “${profile.name}”?`}
          confirmLabel="Switch to production"
          onConfirm={() => {
            setConfirmingSwitch(false);
            void run(() => activate.mutateAsync({ id: profile.id }));
          }}
          onCancel={() => setConfirmingSwitch(false)}
        >
          <p>
            Every screen will then read and act on {profile.baseUrl} with real money. Payouts and beneficiaries created
            from now on are real.
          </p>
        </ConfirmDialog>
      )}
      {confirming && (
        <ConfirmDialog
          title={`Remove the profile “${profile.name}”?`}
          confirmLabel="Remove profile"
          onConfirm={() => {
            setConfirming(false);
            void run(() => remove.mutateAsync({ id: profile.id }));
          }}
          onCancel={() => setConfirming(false)}
        >
          <p>
            “{profile.name}” ({profile.baseUrl}) is removed from this console, and its secret is deleted from the OS
            keychain.
            {active && ' The built-in Sandbox profile becomes active.'}
          </p>
        </ConfirmDialog>
      )}
    </article>
  );
}
