import { useId, useRef, useState, type FormEvent } from 'react';
import { secretProblem } from './profile-form';
import { resultOf } from '../query/ipc-query';
import { useSecretChange } from './settings-queries';

/**
 * Sets or replaces a secret. The field is uncontrolled and emptied the moment the form is submitted, so the
 * secret is never in React state and sits in one local variable only until main has it.
 */
export function SecretForm({
  profileId,
  replacing,
  onDone,
}: {
  profileId: string;
  replacing: boolean;
  onDone(): void;
}) {
  const setSecret = useSecretChange('credentials.set');
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = inputRef.current;
    if (!input) return;
    const secret = input.value;
    input.value = '';
    const problem = secretProblem(secret);
    if (problem) {
      setError(problem);
      input.focus();
      return;
    }
    setBusy(true);
    const result = await resultOf(setSecret.mutateAsync({ profileId, secret }));
    // TanStack Query keeps a mutation's variables: the secret must not outlive its trip to main.
    setSecret.reset();
    setBusy(false);
    if (result.ok) onDone();
    else setError(result.error.message);
  }

  return (
    <form className="secret-form" onSubmit={submit} noValidate>
      <label htmlFor={id}>{replacing ? 'New secret' : 'Secret'}</label>
      <input
        ref={inputRef}
        id={id}
        className="input mono"
        type="password"
        autoComplete="off"
        spellCheck={false}
        maxLength={512}
        autoFocus
        aria-invalid={error !== null}
        aria-describedby={`${id}-note`}
        onChange={() => setError(null)}
      />
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save secret'}
      </button>
      <button type="button" className="button" onClick={onDone} disabled={busy}>
        Cancel
      </button>
      <p id={`${id}-note`} className={error ? 'field-error' : 'field-hint'}>
        {error ?? 'Stored in the OS keychain only. It is never shown again.'}
      </p>
    </form>
  );
}
