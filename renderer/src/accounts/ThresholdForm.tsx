import { useRef, useState, type FormEvent } from 'react';
import type { Minor } from '../../../shared/money';
import { formatRupeesTyped } from '../../../shared/rupees';
import { formatMoney } from '../../../shared/money';
import { RupeesField } from '../ui/RupeesField';
import { parseThreshold } from './low-balance';

/** The desk's own low-balance line, in rupees. Give it a key per profile: its draft starts from the stored value. */
export function ThresholdForm({ threshold, onSave }: { threshold: Minor | null; onSave(minor: Minor | null): void }) {
  const [draft, setDraft] = useState(threshold === null ? '' : formatRupeesTyped(threshold));
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
    setDraft(parsed.minor === null ? '' : formatRupeesTyped(parsed.minor));
    onSave(parsed.minor);
  }

  return (
    <form className="acct-threshold-form" onSubmit={submit} noValidate aria-label="Low-balance alert">
      <RupeesField
        label="Alert below (₹)"
        value={draft}
        onChange={setDraft}
        error={error}
        hint={
          threshold === null
            ? 'No alert set. INR accounts, kept on this computer for this profile.'
            : `Alert when available is below ${formatMoney(threshold)} (INR accounts).`
        }
        placeholder="e.g. 5,00,000"
        inputRef={input}
        className="input acct-money-input"
      />
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
