import { useState, type InputHTMLAttributes } from 'react';
import { formatDdMmYyyy, parseDdMmYyyy } from '../../../shared/format';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> & {
  /** `YYYY-MM-DD`. */
  value: string;
  /** The typed date as `YYYY-MM-DD`, or null while the text is not a real dd/mm/yyyy date. */
  onChange(date: string | null): void;
};

/**
 * A date field typed as dd/mm/yyyy on every machine. The text is the user's while it is being typed; a value
 * set from outside (a saved view, "last 7 days") replaces it.
 */
export function DateInput({ value, onChange, className, ...rest }: Props) {
  const [text, setText] = useState(() => formatDdMmYyyy(value));
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    if (parseDdMmYyyy(text) !== value) setText(formatDdMmYyyy(value));
  }
  return (
    <input
      {...rest}
      type="text"
      inputMode="numeric"
      placeholder="dd/mm/yyyy"
      autoComplete="off"
      spellCheck={false}
      maxLength={10}
      className={`input ${className ?? ''}`}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onChange(parseDdMmYyyy(e.target.value));
      }}
    />
  );
}
