/**
 * The one data table: sorting (numbers as numbers, nulls last, back to the list's own order on the third press),
 * one tab stop with the arrow keys, Enter to open, the column chooser and density remembered per table, and the
 * loading, error and empty states in place of the rows.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DataTable, nextSort, sortRows, type DataColumn, type TableSort } from '../../renderer/src/ui/DataTable';
import { useTablePrefsStore } from '../../renderer/src/ui/table-prefs';
import { FilterSelect, optionsOf } from '../../renderer/src/ui/FilterSelect';
import { checkedFilters, withFilter } from '../../renderer/src/ui/table-views';
import { z } from 'zod';

interface Row {
  id: string;
  name: string;
  tax: number | null;
}

const ROWS: Row[] = [
  { id: 'a', name: 'Asha', tax: 900 },
  { id: 'b', name: 'bimal', tax: null },
  { id: 'c', name: 'Chitra', tax: 10_000 },
  { id: 'd', name: 'Deepak', tax: 25 },
];

const COLUMNS: DataColumn<Row>[] = [
  { id: 'name', label: 'Name', cell: (r) => r.name, sortValue: (r) => r.name },
  {
    id: 'tax',
    label: 'Tax',
    cell: (r) => String(r.tax ?? '—'),
    sortValue: (r) => r.tax,
    numeric: true,
    optional: true,
  },
  { id: 'id', label: 'Id', cell: (r) => r.id, optional: true, hiddenByDefault: true },
];

function Harness({
  onOpen = () => {},
  state,
}: {
  onOpen?(r: Row): void;
  state?: Parameters<typeof DataTable>[0]['state'];
}) {
  const [sort, setSort] = useState<TableSort | null>(null);
  return (
    <DataTable
      id="test-table"
      label="People"
      columns={COLUMNS}
      rows={ROWS}
      rowKey={(r) => r.id}
      sort={sort}
      onSort={setSort}
      onOpen={onOpen}
      state={state}
    />
  );
}

const bodyNames = () =>
  within(screen.getByRole('table', { name: 'People' }))
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]!.textContent);

describe('sortRows and nextSort', () => {
  it('sorts numbers numerically with nulls last either way, text by collation, ties stable', () => {
    const ids = (sort: TableSort | null) => sortRows(ROWS, COLUMNS, sort).map((r) => r.id);
    expect(ids({ column: 'tax', direction: 'asc' })).toEqual(['d', 'a', 'c', 'b']);
    expect(ids({ column: 'tax', direction: 'desc' })).toEqual(['c', 'a', 'd', 'b']);
    expect(ids({ column: 'name', direction: 'asc' })).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(null)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('goes first way, other way, then back to the list order; numbers start with the largest', () => {
    expect(nextSort(null, 'tax', true)).toEqual({ column: 'tax', direction: 'desc' });
    expect(nextSort({ column: 'tax', direction: 'desc' }, 'tax', true)).toEqual({ column: 'tax', direction: 'asc' });
    expect(nextSort({ column: 'tax', direction: 'asc' }, 'tax', true)).toBeNull();
    expect(nextSort({ column: 'tax', direction: 'asc' }, 'name', false)).toEqual({ column: 'name', direction: 'asc' });
  });
});

describe('DataTable', () => {
  it('sorts by a numeric header and says so to assistive technology', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: /Tax/ }));
    expect(bodyNames()).toEqual(['Chitra', 'Asha', 'Deepak', 'bimal']);
    expect(screen.getByRole('columnheader', { name: /Tax/ }).getAttribute('aria-sort')).toBe('descending');
    await user.click(screen.getByRole('button', { name: /Tax/ }));
    expect(bodyNames()).toEqual(['Deepak', 'Asha', 'Chitra', 'bimal']);
  });

  it('is one tab stop; the arrows move the selection and Enter opens the selected row', async () => {
    const user = userEvent.setup();
    const opened: string[] = [];
    render(<Harness onOpen={(r) => opened.push(r.id)} />);
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => r.tabIndex)).toEqual([0, -1, -1, -1]);
    rows[0]!.focus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement).toBe(screen.getAllByRole('row')[3]);
    await user.keyboard('{End}{Enter}');
    expect(opened).toEqual(['d']);
  });

  it('hides and shows optional columns and keeps the choice and the density for the next time', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<Harness />);
    expect(screen.queryByRole('columnheader', { name: 'Id' })).toBeNull();
    await user.click(screen.getByText('Columns'));
    expect((screen.getByRole('checkbox', { name: 'Name' }) as HTMLInputElement).disabled).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Id' }));
    await user.click(screen.getByRole('checkbox', { name: 'Tax' }));
    await user.click(screen.getByRole('radio', { name: 'Compact' }));
    expect(screen.getByRole('columnheader', { name: 'Id' })).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: /Tax/ })).toBeNull();
    unmount();
    // A fresh store, as after a restart, reads what was kept.
    useTablePrefsStore.setState({ tables: JSON.parse(localStorage.getItem('payout-console.tables')!) });
    render(<Harness />);
    expect(screen.getByRole('columnheader', { name: 'Id' })).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: /Tax/ })).toBeNull();
    expect(screen.getByRole('table').className).toContain('dt-compact');
  });

  it('shows the loading, error and empty states instead of rows', async () => {
    const user = userEvent.setup();
    let retried = 0;
    const { rerender } = render(<Harness state={{ kind: 'loading', label: 'Loading people' }} />);
    expect(screen.getByRole('status', { name: 'Loading people' })).toBeTruthy();
    rerender(
      <Harness
        state={{
          kind: 'error',
          error: { code: 'CACHE_UNREADABLE', message: 'The cache could not be read.' },
          retry: () => retried++,
        }}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('The cache could not be read.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retried).toBe(1);
    rerender(<Harness state={{ kind: 'empty', title: 'Nobody yet' }} />);
    expect(screen.getByText('Nobody yet')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a list’s own filters above it and its views menu beside the column chooser', async () => {
    const user = userEvent.setup();
    function Filtered() {
      const [status, setStatus] = useState<string | undefined>('archived');
      const rows = status ? ROWS.filter((r) => (r.tax === null ? 'none' : 'taxed') === status) : ROWS;
      return (
        <DataTable
          id="people-filtered"
          label="People"
          columns={COLUMNS}
          rows={rows}
          rowKey={(r) => r.id}
          sort={null}
          onSort={() => {}}
          filters={
            <FilterSelect
              label="Tax"
              value={status}
              options={optionsOf(ROWS, (r) => (r.tax === null ? 'none' : 'taxed'))}
              onChange={setStatus}
            />
          }
          views={<button type="button">Views</button>}
        />
      );
    }
    render(<Filtered />);
    const filters = screen.getByRole('group', { name: 'Filter people' });
    const select = within(filters).getByLabelText('Tax');
    // A value a view set that no row has now stays shown, not silently "Any".
    expect((select as HTMLSelectElement).value).toBe('archived');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Any', 'archived', 'none', 'taxed']);
    await user.selectOptions(select, 'none');
    expect(screen.getAllByRole('row')).toHaveLength(2);
    await user.selectOptions(select, '');
    expect(screen.getAllByRole('row')).toHaveLength(5);
    const tools = screen.getByRole('button', { name: 'Views' }).parentElement!;
    expect(within(tools).getByText('Columns')).toBeTruthy();
  });

  it('keeps a view’s filters only as its screen checks them, each alone', () => {
    const fields = { state: z.enum(['matched', 'overdue']), search: z.string().trim().max(5) };
    expect(checkedFilters(fields, { state: 'overdue', search: ' acme ', unknown: 'x' })).toEqual({
      state: 'overdue',
      search: 'acme',
    });
    expect(checkedFilters(fields, { state: 'gone', search: 'far too long', other: null })).toEqual({});
    expect(withFilter({ state: 'matched' }, 'search', 'x')).toEqual({ state: 'matched', search: 'x' });
    expect(withFilter({ state: 'matched', search: 'x' }, 'search', '')).toEqual({ state: 'matched' });
    expect(withFilter({ state: 'matched' }, 'state', undefined)).toEqual({});
  });
});
