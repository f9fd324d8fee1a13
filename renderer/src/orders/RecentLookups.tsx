/**
 * The recent lookups panel of the Orders and Subscriptions screens: what the desk looked up, kept in the cache and
 * read offline, in a table with its status filter, sort and saved views kept under the table's id.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import { z } from 'zod';
import { loadableOf, type IpcFailure } from '../query/ipc-query';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { FilterSelect, optionsOf } from '../ui/FilterSelect';
import { SavedViewsMenu } from '../ui/SavedViewsMenu';
import { useTableSort } from '../ui/table-sorts';
import { useTableViews } from '../ui/table-views';
import { ErrorNotice, Skeleton } from '../ui/states';
import './orders.css';

const FILTERS = { status: z.string().max(40) };

/** What one screen's recent lookups are, fixed for the screen. */
export interface RecentKind<T> {
  /** The table's id: its columns, sort, filter and saved views are kept under it. */
  table: string;
  /** What is looked up, singular and plural: "order", "orders". */
  noun: string;
  nouns: string;
  columns: DataColumn<T>[];
  rowKey: (row: T) => string;
  statusOf: (row: T) => string;
}

export function RecentLookups<T>(props: {
  kind: RecentKind<T>;
  query: UseQueryResult<T[], IpcFailure>;
  currentKey: string | null;
  onOpen: (row: T) => void;
}) {
  const { query } = props;
  const { table, noun, nouns, statusOf } = props.kind;
  const recent = loadableOf(query);
  const [sort, setSort] = useTableSort(table);
  const views = useTableViews(table, FILTERS);
  const status = views.filters['status'] as string | undefined;
  const all = useMemo(() => (recent.status === 'ready' ? recent.value : []), [recent]);
  const rows = useMemo(() => (status ? all.filter((r) => statusOf(r) === status) : all), [all, status, statusOf]);
  const titleId = `${noun}-recent-title`;
  const Nouns = nouns.charAt(0).toUpperCase() + nouns.slice(1);
  return (
    <section className="order-panel" aria-labelledby={titleId}>
      <header className="order-panel-head">
        <h2 id={titleId}>Recent {nouns}</h2>
      </header>
      {recent.status === 'loading' && <Skeleton rows={3} label={`Loading recent ${nouns}`} />}
      {recent.status === 'failed' && <ErrorNotice error={recent.error} onRetry={() => void query.refetch()} />}
      {recent.status === 'ready' &&
        (all.length === 0 ? (
          <p className="muted">{Nouns} you look up are kept here, and read offline.</p>
        ) : (
          <DataTable
            id={table}
            label={`Recent ${nouns}`}
            columns={props.kind.columns}
            rows={rows}
            rowKey={props.kind.rowKey}
            sort={sort}
            onSort={setSort}
            currentKey={props.currentKey}
            onOpen={props.onOpen}
            state={rows.length === 0 ? { kind: 'empty', title: `No recent ${noun} is ${status}` } : undefined}
            filters={
              <FilterSelect
                label="Status"
                value={status}
                options={optionsOf(all, statusOf)}
                onChange={(v) => views.setFilter('status', v)}
              />
            }
            views={<SavedViewsMenu {...views.menu} />}
          />
        ))}
    </section>
  );
}
