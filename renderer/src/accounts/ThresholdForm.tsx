import { useRef, useState, type FormEvent } from 'react';
import { formatMinor, type Minor } from '../../../shared/money';
import { FormField } from '../ui/FormField';
import { formatMoney } from '../ui/format';
import { parseThreshold } from './low-balance';

/** The desk's own low-balance line, in rupees. Give it a key per profile: its draft starts from the stored value. */
export function ThresholdForm({ threshold, onSave }: { threshold: Minor | null; onSave(minor: Minor | null): void }) {
  const [draft, setDraft] = useState(threshold === null ? '' : formatMinor(threshold));
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseThreshold(draft);
    if (!parsed.ok) {
      setError(parsed.message);
      input.current?.focus();
      return;
    }
    setError(undefined);
    setDraft(parsed.minor === null ? '' : formatMinor(parsed.minor));
    onSave(parsed.minor);
  }

  return (
    <form className="acct-threshold-form" onSubmit={submit} noValidate aria-label="Low-balance alert">
      <FormField
        label="Alert below (₹)"
        error={error}
        hint={
          threshold === null
            ? 'No alert set. INR accounts, kept on this computer for this profile.'
            : `Alert when available is below ${formatMoney(threshold)} (INR accounts).`
        }
      >
        {(control) => (
          <input
            {...control}
            ref={input}
            className="input acct-money-input"
            inputMode="decimal"
            autoComplete="off"
            placeholder="e.g. 5,00,000"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
        )}
      </FormField>
      <button type="submit" className="button">
        Set alert
      </button>
      {threshold !== null && (
        <button
          type="button"
          className="button"
          onClick={() => {
            setDraft('');
            setError(undefined);
            onSave(null);
          }}
        >
          Clear alert
        </button>
      )}
    </form>
  );
}
