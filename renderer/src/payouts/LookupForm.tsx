import { useState, type FormEvent } from 'react';
import { looksLikeIdList } from '../../../shared/payout-checks';
import { IdField, useIdField } from '../ui/IdField';
import { useLookUp } from './payouts-queries';
import { SubmitButton } from '../ui/SubmitButton';
import { usePayoutsUi } from './payouts-store';

export function LookupForm() {
  const { lookUp, busy } = useLookUp();
  const field = useIdField('a payout id');
  const [advance, setAdvance] = useState(false);
  const [moved, setMoved] = useState<string>();
  const toBulk = usePayoutsUi((s) => s.toBulk);

  function submit(event: FormEvent) {
    event.preventDefault();
    setMoved(undefined);
    // Several ids pasted here are a list, not one id "TRF… TRF…": the bulk check takes them, and nothing is looked up.
    if (looksLikeIdList(field.value)) {
      toBulk(field.value.trim());
      field.setValue('');
      field.setError(undefined);
      setMoved('That was a list of payout ids: it is in the bulk check below, ready to check.');
      return;
    }
    const id = field.take();
    if (id === undefined) return;
    field.setValue(id);
    lookUp(id, advance ? 'advance' : 'normal');
    // Advance is asked for one lookup at a time; the next one is normal unless ticked again.
    setAdvance(false);
  }

  return (
    <form className="payout-form" onSubmit={submit} noValidate aria-label="Look up a payout">
      <IdField
        field={field}
        label="Payout id"
        placeholder="TRF…"
        hint={
          moved ??
          'The transfer id, such as TRF123456789012. / or Ctrl+F (⌘F on a Mac) jumps here. Several ids go to the bulk check.'
        }
      />
      <label className="payout-advance">
        <input type="checkbox" checked={advance} onChange={(e) => setAdvance(e.target.checked)} />
        Advance (ask the gateway directly)
      </label>
      <SubmitButton pending={busy} pendingLabel="Looking up…">
        Look up
      </SubmitButton>
    </form>
  );
}
