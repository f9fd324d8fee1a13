import type { ReactNode, Ref } from 'react';
import { amountInWords } from '../../../shared/amount-words';
import { checkRupees } from '../../../shared/rupees';
import { FormField } from './FormField';

/**
 * A box for an amount typed in rupees: a decimal keypad on touch screens and no autofill, since a remembered amount
 * offered back is one a person may send without reading. Given `inWords`, the hint says the typed amount in words
 * once it parses, so a slipped digit shows before the confirmation does.
 */
export function RupeesField({
  label,
  value,
  onChange,
  error,
  hint,
  inWords,
  placeholder,
  disabled,
  inputRef,
  className = 'input mono',
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string;
  hint?: ReactNode;
  /** The currency to say a parsed amount in, in place of the hint. */
  inWords?: string;
  placeholder?: string;
  disabled?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  className?: string;
}) {
  const parsed = inWords !== undefined && value.trim() !== '' ? checkRupees(value) : null;
  return (
    <FormField label={label} error={error} hint={parsed?.ok ? amountInWords(parsed.minor, inWords) : hint}>
      {(control) => (
        <input
          {...control}
          ref={inputRef}
          className={className}
          inputMode="decimal"
          autoComplete="off"
          placeholder={placeholder}
          value={value}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </FormField>
  );
}
