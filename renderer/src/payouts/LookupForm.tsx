import { useRef, useState, type FormEvent } from 'react';
import { FormField } from '../ui/FormField';
import { useFindShortcut } from '../ui/use-find-shortcut';
import { useLookUp } from './payouts-queries';
import { useOfflineReason } from '../ui/offline';

const MAX_ID = 64;

export function LookupForm() {
  const { lookUp, busy } = useLookUp();
  const offline = useOfflineReason();
  const [payoutId, setPayoutId] = useState('');
  const [advance, setAdvance] = useState(false);
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  useFindShortcut(input);

  function submit(event: FormEvent) {
    event.preventDefault();
    const id = payoutId.trim();
    const problem =
      id === ''
        ? 'Enter a payout id.'
        : id.length > MAX_ID
          ? `A payout id is at most ${MAX_ID} characters.`
          : undefined;
    setError(problem);
    if (problem) {
      input.current?.focus();
      return;
    }
    setPayoutId(id);
    lookUp(id, advance ? 'advance' : 'normal');
  }

  return (
    <form className="payout-form" onSubmit={submit} noValidate aria-label="Look up a payout">
      <FormField
        label="Payout id"
        error={error}
        hint="The transfer id, such as TRF123456789012. / or Ctrl+F (⌘F on a Mac) jumps here."
      >
        {(control) => (
          <input
            {...control}
            ref={input}
            data-search
            className="input mono"
            autoComplete="off"
            spellCheck={false}
            placeholder="TRF…"
            value={payoutId}
            onChange={(e) => setPayoutId(e.target.value)}
          />
        )}
      </FormField>
      <label className="payout-advance">
        <input type="checkbox" checked={advance} onChange={(e) => setAdvance(e.target.checked)} />
        Advance (ask the gateway directly)
      </label>
      <button
        type="submit"
        className="button button-primary"
        disabled={busy || offline !== null}
        title={offline ?? undefined}
      >
        {busy ? 'Looking up…' : 'Look up'}
      </button>
    </form>
  );
}
