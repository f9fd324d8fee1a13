/**
 * An export follows what the desk saw: a list sorted as the on-screen table sorts (shared/table-sort.ts), and a
 * file named after the saved view and the filter on screen, cleaned like every other part of a name; a filtered list
 * export holds what the screen's filter shows (the same test, shared/payouts.ts).
 */
import { describe, expect, it } from 'vitest';
import { suggestedName } from '../../electron/export/jobs';
import { listFilterOf, listFilterText, sortListRows } from '../../electron/export/list-sheets';
import { listSortOf } from '../../shared/exports';
import { CHECK_FAILED, listStatusOf, payoutListMatches, type PayoutLookup } from '../../shared/payouts';
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

describe('list exports with the filter on screen', () => {
  it('name the status, "changed" and the search after the view, each cleaned', () => {
    expect(
      suggestedName(
        'Desk',
        { kind: 'payouts', format: 'xlsx', view: 'Failed today', filter: { status: 'failed', search: 'ACME/../x' } },
        now,
      ),
    ).toBe(`desk-payouts-${TEST_TODAY}-view-failed-today-status-failed-search-acme-x.xlsx`);
    expect(
      suggestedName('Desk', { kind: 'beneficiaries', format: 'csv', filter: { search: 'vendor', changed: true } }, now),
    ).toBe(`desk-beneficiaries-${TEST_TODAY}-changed-search-vendor.csv`);
  });

  it('an empty filter is the whole list: no part in the name, nothing in the Audit sheet', () => {
    const request = { kind: 'beneficiaries', format: 'csv', filter: { search: '  ', changed: false } } as const;
    expect(listFilterOf(request)).toBeUndefined();
    expect(listFilterText(request)).toBeNull();
    expect(suggestedName('Desk', request, now)).toBe(`desk-beneficiaries-${TEST_TODAY}.csv`);
  });

  it('says the filter in words for the Audit sheet', () => {
    expect(listFilterText({ kind: 'payouts', format: 'csv', filter: { status: CHECK_FAILED, search: 'utr9' } })).toBe(
      "latest check's status check failed; matching “utr9”",
    );
  });
});

describe('the payout list filter (screen and export alike)', () => {
  const lookup = (over: Partial<PayoutLookup>): PayoutLookup => ({
    id: 1,
    payoutId: 'po_ACME1',
    mode: 'normal',
    lookedUpAt: '2026-06-15T06:30:00.000Z',
    transferStatus: 'success',
    utNo: 'UTR12345',
    amount: 10_000,
    processedAt: null,
    gatewayErrorCode: null,
    gatewayErrorMessage: null,
    error: null,
    payout: { beneficiary: { name: 'Zenith Traders' } } as PayoutLookup['payout'],
    firstSeenAt: null,
    ...over,
  });

  it('matches the status of the latest check, a failed check as "check failed"', () => {
    expect(payoutListMatches(lookup({}), { status: 'success' })).toBe(true);
    expect(payoutListMatches(lookup({}), { status: 'failed' })).toBe(false);
    const unanswered = lookup({ error: 'Not found', transferStatus: null });
    expect(listStatusOf(unanswered)).toBe(CHECK_FAILED);
    expect(payoutListMatches(unanswered, { status: CHECK_FAILED })).toBe(true);
  });

  it('searches the payout id, UTR and beneficiary name in any case', () => {
    for (const search of ['acme1', 'utr123', 'zenith']) expect(payoutListMatches(lookup({}), { search })).toBe(true);
    expect(payoutListMatches(lookup({}), { search: 'nobody' })).toBe(false);
    expect(payoutListMatches(lookup({ payout: null, utNo: null }), { search: 'zenith' })).toBe(false);
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
