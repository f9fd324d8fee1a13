import { useRef, useState, type FormEvent } from 'react';
import { looksLikeIdList } from '../../../shared/payout-checks';
import { FormField } from '../ui/FormField';
import { useFindShortcut } from '../ui/use-find-shortcut';
import { useLookUp } from './payouts-queries';
import { useOfflineReason } from '../ui/offline';
import { usePayoutsUi } from './payouts-store';

const MAX_ID = 64;

export function LookupForm() {
  const { lookUp, busy } = useLookUp();
  const offline = useOfflineReason();
  const [payoutId, setPayoutId] = useState('');
  const [advance, setAdvance] = useState(false);
  const [error, setError] = useState<string>();
  const [moved, setMoved] = useState<string>();
  const toBulk = usePayoutsUi((s) => s.toBulk);
  const input = useRef<HTMLInputElement>(null);
  useFindShortcut(input);

  function submit(event: FormEvent) {
    event.preventDefault();
    setMoved(undefined);
    // Several ids pasted here are a list, not one id "TRF… TRF…": the bulk check takes them, and nothing is looked up.
    if (looksLikeIdList(payoutId)) {
      toBulk(payoutId.trim());
      setPayoutId('');
      setError(undefined);
      setMoved('That was a list of payout ids: it is in the bulk check below, ready to check.');
      return;
    }
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
    // Advance is asked for one lookup at a time; the next one is normal unless ticked again.
    setAdvance(false);
  }

  return (
    <form className="payout-form" onSubmit={submit} noValidate aria-label="Look up a payout">
      <FormField
        label="Payout id"
        error={error}
        hint={
          moved ??
          'The transfer id, such as TRF123456789012. / or Ctrl+F (⌘F on a Mac) jumps here. Several ids go to the bulk check.'
        }
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
