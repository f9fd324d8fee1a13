/**
 * The one table every list uses: sortable headers (every column with a sort value, numbers numerically), one tab
 * stop with arrow keys, Home/End and Page Up/Down, Enter to open a row, a selected row, the loading / error /
 * empty states, a column chooser and two densities. The columns shown and the density are remembered per table.
 *
 * It sorts the rows it is given; a list the cache pages (the settlements grid) sorts in SQL instead and only
 * shares the header's behaviour.
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { IpcError } from '../../../shared/ipc/contract';
import { sortByKey } from '../../../shared/table-sort';
import { EmptyState, ErrorNotice, Skeleton } from './states';
import { rowKeyTarget } from './use-roving-rows';
import { useTablePrefs, type Density } from './table-prefs';

export interface DataColumn<R> {
  id: string;
  label: string;
  cell(row: R): ReactNode;
  /** What the column sorts by; without it the column does not sort. Numbers sort as numbers, text by en-IN collation. */
  sortValue?(row: R): string | number | null;
  numeric?: boolean;
  mono?: boolean;
  /** May be hidden in the column chooser (the column naming the row may not). */
  optional?: boolean;
  /** Hidden until chosen. */
  hiddenByDefault?: boolean;
  /** Long text that is the point of the row (what changed): wrapped in full, never cut to an ellipsis. */
  wrap?: boolean;
}

export interface TableSort {
  column: string;
  direction: 'asc' | 'desc';
}

export type TableState =
  | { kind: 'ready' }
  | { kind: 'loading'; label: string }
  | { kind: 'error'; error: IpcError; retry(): void }
  | { kind: 'empty'; title: string; children?: ReactNode };

interface DataTableProps<R> {
  /** Where its columns and density are remembered: unique per table. */
  id: string;
  label: string;
  columns: readonly DataColumn<R>[];
  rows: readonly R[];
  rowKey(row: R): string;
  state?: TableState;
  sort: TableSort | null;
  onSort(sort: TableSort | null): void;
  /** The selected row's key; the first row when null. */
  selectedKey?: string | null;
  onSelect?(key: string): void;
  /** Enter, or a click: open the row. */
  onOpen?(row: R): void;
  onEscape?(): void;
  /** The row on screen elsewhere (a detail panel), marked in the list. */
  currentKey?: string | null;
  /** Extra classes for a row (a flagged record). */
  rowClass?(row: R): string | undefined;
  /** The list's own filters, shown above it on the left. */
  filters?: ReactNode;
  /** The list's saved views menu (`<SavedViewsMenu>`), beside its column chooser. */
  views?: ReactNode;
}

const PAGE_STEP = 10;
/** Rows in the order of `sort` (shared/table-sort.ts: a list export sorts alike); nulls last, ties as they came. */
export function sortRows<R>(rows: readonly R[], columns: readonly DataColumn<R>[], sort: TableSort | null): R[] {
  const column = sort && columns.find((c) => c.id === sort.column);
  if (!sort || !column?.sortValue) return [...rows];
  return sortByKey(rows, column.sortValue, sort.direction);
}

/** The next sort when a header is pressed: ascending, descending, then back to the list's own order. */
export function nextSort(current: TableSort | null, column: string, numeric: boolean): TableSort | null {
  const first = numeric ? 'desc' : 'asc';
  if (current?.column !== column) return { column, direction: first };
  if (current.direction === first) return { column, direction: first === 'asc' ? 'desc' : 'asc' };
  return null;
}

function ColumnChooser<R>({
  columns,
  hidden,
  onToggle,
  density,
  onDensity,
}: {
  columns: readonly DataColumn<R>[];
  hidden: ReadonlySet<string>;
  onToggle(id: string): void;
  density: Density;
  onDensity(d: Density): void;
}) {
  const id = useId();
  return (
    <details className="dt-chooser">
      <summary className="button button-quiet">Columns</summary>
      <div className="dt-chooser-menu" role="group" aria-labelledby={`${id}-title`}>
        <p id={`${id}-title`} className="dt-chooser-title">
          Columns shown
        </p>
        {columns.map((c) => (
          <label key={c.id} className="dt-chooser-item">
            <input type="checkbox" checked={!hidden.has(c.id)} disabled={!c.optional} onChange={() => onToggle(c.id)} />
            {c.label}
          </label>
        ))}
        <fieldset className="dt-density">
          <legend>Density</legend>
          {(['comfortable', 'compact'] as const).map((d) => (
            <label key={d}>
              <input type="radio" name={`${id}-density`} checked={density === d} onChange={() => onDensity(d)} />
              {d === 'compact' ? 'Compact' : 'Comfortable'}
            </label>
          ))}
        </fieldset>
      </div>
    </details>
  );
}

export function DataTable<R>(props: DataTableProps<R>) {
  const { columns, rows, rowKey, sort, onSort, state = { kind: 'ready' } } = props;
  const prefs = useTablePrefs(props.id, columns);
  const shownColumns = columns.filter((c) => !prefs.hidden.has(c.id));
  const sorted = useMemo(() => sortRows(rows, columns, sort), [rows, columns, sort]);
  const body = useRef<HTMLTableSectionElement>(null);
  const moved = useRef(false);
  const [ownSelection, setOwnSelection] = useState<string | null>(null);
  const selectedKey = props.selectedKey === undefined ? ownSelection : props.selectedKey;
  const select = props.onSelect ?? setOwnSelection;
  const selectedIndex = Math.max(
    0,
    sorted.findIndex((r) => rowKey(r) === selectedKey),
  );

  // Focus follows the selection only when the keyboard moved it; a search or a refresh must not steal focus.
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    const row = body.current?.querySelector<HTMLElement>('tr[aria-selected="true"]');
    row?.focus();
    // Optional: not every DOM (jsdom) lays out.
    row?.scrollIntoView?.({ block: 'nearest' });
  }, [selectedKey, selectedIndex]);

  function onKeyDown(event: KeyboardEvent<HTMLTableSectionElement>) {
    const target = rowKeyTarget(event.key, selectedIndex, sorted.length, PAGE_STEP);
    const row = sorted[selectedIndex];
    if (target !== null) {
      event.preventDefault();
      const next = sorted[target];
      if (next) {
        moved.current = true;
        select(rowKey(next));
      }
    } else if ((event.key === 'Enter' || event.key === ' ') && row && props.onOpen) {
      event.preventDefault();
      props.onOpen(row);
    } else if (event.key === 'Escape') props.onEscape?.();
  }

  const table = (
    <table className={`dt dt-${prefs.density}`} aria-label={props.label} aria-rowcount={sorted.length + 1}>
      <thead>
        <tr>
          {shownColumns.map((c) => {
            const direction = sort?.column === c.id ? sort.direction : null;
            return (
              <th
                key={c.id}
                scope="col"
                className={c.numeric ? 'dt-numeric' : undefined}
                aria-sort={direction === null ? undefined : direction === 'asc' ? 'ascending' : 'descending'}
              >
                {c.sortValue ? (
                  <button
                    type="button"
                    className="dt-sort"
                    onClick={() => onSort(nextSort(sort, c.id, c.numeric === true))}
                  >
                    {c.label}
                    <span aria-hidden="true" className="dt-sort-mark">
                      {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : ''}
                    </span>
                  </button>
                ) : (
                  c.label
                )}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody ref={body} onKeyDown={onKeyDown}>
        {sorted.map((r, i) => {
          const key = rowKey(r);
          const selected = i === selectedIndex;
          return (
            <tr
              key={key}
              data-id={key}
              tabIndex={selected ? 0 : -1}
              aria-selected={selected}
              aria-current={props.currentKey === key ? 'true' : undefined}
              className={props.rowClass?.(r)}
              // A row reached by Tab or a click is the one the keys act on.
              onFocus={() => {
                if (!selected) select(key);
              }}
              onClick={() => {
                select(key);
                props.onOpen?.(r);
              }}
            >
              {shownColumns.map((c) => (
                <td
                  key={c.id}
                  className={[c.numeric ? 'dt-numeric money' : '', c.mono ? 'mono' : '', c.wrap ? 'dt-wrap' : '']
                    .filter(Boolean)
                    .join(' ')}
                >
                  {c.cell(r)}
                </td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );

  return (
    <div className="dt-box">
      <div className="dt-tools">
        {props.filters && (
          <div className="dt-filters" role="group" aria-label={`Filter ${props.label.toLowerCase()}`}>
            {props.filters}
          </div>
        )}
        {props.views}
        <ColumnChooser
          columns={columns}
          hidden={prefs.hidden}
          onToggle={prefs.toggle}
          density={prefs.density}
          onDensity={prefs.setDensity}
        />
      </div>
      {state.kind === 'loading' && <Skeleton rows={5} label={state.label} />}
      {state.kind === 'error' && <ErrorNotice error={state.error} onRetry={state.retry} />}
      {state.kind === 'empty' && <EmptyState title={state.title}>{state.children}</EmptyState>}
      {state.kind === 'ready' && <div className="dt-scroll">{table}</div>}
    </div>
  );
}
