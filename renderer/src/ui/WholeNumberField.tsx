/**
 * A whole number the desk sets (a setting of the profile: days, a percent), saved when the field is left or Enter
 * is pressed, and only when it is a whole number from 0 to `max` that differs from the one saved; until then the
 * field says it is not valid and what is.
 */
import { useState } from 'react';

export function WholeNumberField({
  label,
  value,
  max,
  suffix,
  onSave,
}: {
  label: string;
  value: number;
  max: number;
  /** Shown after the field ("%"). */
  suffix?: string;
  onSave(n: number): void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? String(value);
  const n = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  const valid = n >= 0 && n <= max;
  const commit = () => {
    if (valid && n !== value) onSave(n);
    if (valid) setDraft(null);
  };
  return (
    <label className="whole-number-field">
      {label}{' '}
      <input
        className="input"
        inputMode="numeric"
        aria-label={label}
        aria-invalid={!valid}
        title={`A whole number from 0 to ${max}`}
        value={text}
        onChange={(e) => setDraft(e.target.value.trim())}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
      />
      {suffix}
      {!valid && <span className="error"> a whole number from 0 to {max}</span>}
    </label>
  );
}
