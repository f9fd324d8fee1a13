import { useId } from 'react';

/**
 * A list's filter by one value (a status, a state): "Any" and the values given, each with its label. A value set by
 * a saved view that is not among the options (a status no row has now) stays shown, so the filter never hides.
 */
export function FilterSelect({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string | undefined;
  options: readonly (readonly [value: string, label: string])[];
  onChange(value: string | undefined): void;
}) {
  const id = useId();
  const known = value === undefined || options.some(([v]) => v === value);
  return (
    <span className="filter-select">
      <label htmlFor={id}>{label}</label>{' '}
      <select
        id={id}
        className="input"
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      >
        <option value="">Any</option>
        {!known && <option value={value}>{value}</option>}
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </span>
  );
}

/** The distinct values of `of(row)` in the rows, sorted, as options labelled by themselves. */
export function optionsOf<R>(rows: readonly R[], of: (row: R) => string | null | undefined): [string, string][] {
  const values = new Set<string>();
  for (const r of rows) {
    const v = of(r);
    if (v) values.add(v);
  }
  return [...values].sort((a, b) => a.localeCompare(b, 'en-IN')).map((v) => [v, v]);
}
