import { useState } from 'react';
import type { IpcError } from '../../../shared/ipc/contract';
import { ErrorNotice } from '../ui/states';
import { ConfirmDialog } from '../ConfirmDialog';
import { ConnectionTestOutcome, TestConnectionButton } from './ConnectionTest';
import { SecretForm } from './SecretForm';
import { resultOf } from '../query/ipc-query';
import { loadableOf } from '../query/ipc-query';
import { useCredentialStatus, useSecretChange, type Profile } from './settings-queries';

function SecretState({ profile }: { profile: Profile }) {
  const status = loadableOf(useCredentialStatus(profile.id));
  if (profile.builtIn) return <span className="secret-state">Managed by the embedded sandbox</span>;
  if (status.status === 'loading') return <span className="secret-state muted">Checking the keychain…</span>;
  if (status.status === 'failed') return <span className="secret-state secret-missing">{status.error.message}</span>;
  if (!status.value.keychainAvailable) return <span className="secret-state secret-missing">Keychain unavailable</span>;
  return status.value.hasSecret ? (
    <span className="secret-state secret-stored">
      <span className="dot" aria-hidden="true" />
      Stored in the OS keychain
    </span>
  ) : (
    <span className="secret-state secret-missing">
      <span className="dot" aria-hidden="true" />
      Not stored
    </span>
  );
}

export function CredentialsRow({ profile }: { profile: Profile }) {
  const status = loadableOf(useCredentialStatus(profile.id));
  const deleteSecret = useSecretChange('credentials.delete');
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);

  const ready = status.status === 'ready' ? status.value : null;
  const editable = !profile.builtIn && ready?.keychainAvailable === true;
  const problem = ready && !ready.keychainAvailable ? (ready.keychainProblem ?? 'No OS keychain answers.') : null;

  async function confirmDelete() {
    setConfirming(false);
    const result = await resultOf(deleteSecret.mutateAsync({ profileId: profile.id }));
    setError(result.ok ? null : result.error);
  }

  return (
    <div className="credentials">
      <div className="credentials-line">
        <span className="fact-label">Secret</span>
        <SecretState profile={profile} />
        <span className="spacer" />
        {editable && !editing && (
          <button type="button" className="button" onClick={() => setEditing(true)}>
            {ready.hasSecret ? 'Replace secret…' : 'Set secret…'}
          </button>
        )}
        {editable && ready.hasSecret && (
          <button type="button" className="button button-quiet-danger" onClick={() => setConfirming(true)}>
            Delete secret…
          </button>
        )}
        <TestConnectionButton profileId={profile.id} />
      </div>
      {editing && ready && (
        <SecretForm profileId={profile.id} replacing={ready.hasSecret} onDone={() => setEditing(false)} />
      )}
      {problem && !profile.builtIn && (
        <p className="notice notice-warning" role="alert">
          <strong>The secret cannot be stored.</strong> {problem}
        </p>
      )}
      {error && <ErrorNotice error={error} />}
      <ConnectionTestOutcome profileId={profile.id} />
      {confirming && (
        <ConfirmDialog
          title={`Delete the secret of “${profile.name}”?`}
          confirmLabel="Delete secret"
          onConfirm={() => void confirmDelete()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            The secret is removed from the OS keychain. “{profile.name}” cannot call the service until a secret is set
            again.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
