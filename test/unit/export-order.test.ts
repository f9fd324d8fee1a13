/**
 * An export follows what the desk saw: a list sorted as the on-screen table sorts (shared/table-sort.ts), and a
 * file named after the saved view on screen, cleaned like every other part of a name.
 */
import { describe, expect, it } from 'vitest';
import { suggestedName } from '../../electron/export/jobs';
import { sortListRows } from '../../electron/export/list-sheets';
import { listSortOf } from '../../shared/exports';
import { TEST_NOW, TEST_TODAY } from '../support/clock';

const now = TEST_NOW;

describe('list export order', () => {
  const rows = [
    ['b', 'Zenith', 1_000, null],
    ['a', 'acme', 25, '2026-06-01 10:00:00'],
    ['c', 'Bharat 10', 300, ''],
    ['d', 'Bharat 9', 300, '2026-05-31 09:00:00'],
  ];

  it('sorts text by en-IN collation (digits as numbers, case aside), numbers numerically, ties as they came', () => {
    expect(sortListRows(rows, 1, 'asc').map((r) => r[0])).toEqual(['a', 'd', 'c', 'b']);
    expect(sortListRows(rows, 2, 'desc').map((r) => r[0])).toEqual(['b', 'c', 'd', 'a']);
  });

  it('puts empty values last whichever the direction', () => {
    expect(sortListRows(rows, 3, 'asc').map((r) => r[0])).toEqual(['d', 'a', 'b', 'c']);
    expect(sortListRows(rows, 3, 'desc').map((r) => r[0])).toEqual(['a', 'd', 'b', 'c']);
  });

  it('takes a table sort only for a column the export holds', () => {
    expect(listSortOf('beneficiaries', { column: 'name', direction: 'desc' })).toEqual({
      column: 'name',
      direction: 'desc',
    });
    expect(listSortOf('payouts', { column: 'age', direction: 'asc' })).toBeUndefined();
    expect(listSortOf('payouts', null)).toBeUndefined();
  });
});

describe('export file names with a saved view', () => {
  it('names the view after the dates and before the filter, as one clean part', () => {
    const name = suggestedName(
      'HDFC payouts',
      {
        kind: 'settlements',
        format: 'xlsx',
        filter: { from: '2026-06-01', to: '2026-06-30', pg: 'payu' },
        view: 'Month end / ../Q2',
      },
      now,
    );
    expect(name).toBe('hdfc-payouts-settlements-2026-06-01-to-2026-06-30-view-month-end-q2-payu.xlsx');
  });

  it('a list export names its view after the date; without one the name is as before', () => {
    expect(suggestedName('Desk', { kind: 'beneficiaries', format: 'csv', view: 'Vendors' }, now)).toBe(
      `desk-beneficiaries-${TEST_TODAY}-view-vendors.csv`,
    );
    expect(suggestedName('Desk', { kind: 'beneficiaries', format: 'csv' }, now)).toBe(
      `desk-beneficiaries-${TEST_TODAY}.csv`,
    );
  });
});

describe('the Changes view export names its filter', () => {
  it('dates, then gateway, sync run and kind of change, each as one clean part', () => {
    const filter = { from: '2026-06-01', to: '2026-06-07' };
    expect(suggestedName('Desk', { kind: 'changes', format: 'csv', filter }, now)).toBe(
      'desk-changes-2026-06-01-to-2026-06-07.csv',
    );
    expect(
      suggestedName(
        'Desk',
        { kind: 'changes', format: 'xlsx', filter: { ...filter, pg: 'pay/u', runId: 12, kind: 'vanished' } },
        now,
      ),
    ).toBe('desk-changes-2026-06-01-to-2026-06-07-pay-u-sync-12-vanished.xlsx');
  });
});
