/**
 * The id box of the lookup screens (orders, subscriptions, payouts): one mono field the find shortcut (Ctrl+F, ⌘F)
 * focuses, checked on submit for an id that is there and no longer than the service takes.
 */
import { useRef, useState, type ReactNode, type RefObject } from 'react';
import { FormField } from './FormField';
import { useFindShortcut } from './use-find-shortcut';

/** The longest id the service's lookups take. */
const MAX_ID = 64;

export interface IdFieldState {
  value: string;
  setValue(value: string): void;
  error: string | undefined;
  setError(error: string | undefined): void;
  input: RefObject<HTMLInputElement | null>;
  /** The trimmed id; or undefined, with the problem shown and the box focused. */
  take(): string | undefined;
}

/** `noun` with its article, as a sentence says it: "an order id", "a payout id". */
export function useIdField(noun: string): IdFieldState {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  useFindShortcut(input);
  function take(): string | undefined {
    const id = value.trim();
    const problem =
      id === ''
        ? `Enter ${noun}.`
        : id.length > MAX_ID
          ? `${noun[0]!.toUpperCase()}${noun.slice(1)} is at most ${MAX_ID} characters.`
          : undefined;
    setError(problem);
    if (problem) {
      input.current?.focus();
      return undefined;
    }
    return id;
  }
  return { value, setValue, error, setError, input, take };
}

export function IdField({
  field,
  label,
  hint,
  placeholder,
}: {
  field: IdFieldState;
  label: string;
  hint: ReactNode;
  placeholder: string;
}) {
  return (
    <FormField label={label} error={field.error} hint={hint}>
      {(control) => (
        <input
          {...control}
          ref={field.input}
          data-search
          className="input mono"
          autoComplete="off"
          spellCheck={false}
          placeholder={placeholder}
          value={field.value}
          onChange={(e) => field.setValue(e.target.value)}
        />
      )}
    </FormField>
  );
}
