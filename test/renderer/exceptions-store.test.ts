/**
 * The Exceptions screen's UI state: filters start at "unresolved", a change of filter goes back to the first page
 * and clears the ticks (an action never reaches rows no longer shown), a group of the panel becomes the filters,
 * the assignee choice maps to the queue's filter both ways, and the confirmation names the filter in words.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ExceptionKey } from '../../shared/desk';
import { queueFilter } from '../../shared/desk';
import { deskLine } from '../../renderer/src/exceptions/exceptions-queries';
import {
  DEFAULT_FILTER,
  QUEUE_TABLE,
  assigneeOf,
  checkedQueueFilter,
  describeFilter,
  keyId,
  queueViews,
  useExceptionsUi,
  withAssignee,
} from '../../renderer/src/exceptions/exceptions-store';
import { useTableSorts } from '../../renderer/src/ui/table-sorts';
import { ageText } from '../../renderer/src/exceptions/ExceptionsScreen';
import { refusalText, resultText } from '../../renderer/src/exceptions/BulkActions';

const key = (n: number): ExceptionKey => ({
  date: '2026-06-13',
  pg: 'payu',
  pgTransactionId: `pay_${n}`,
  settlementDate: '2026-06-14',
});
const ui = () => useExceptionsUi.getState();

describe('the exceptions store', () => {
  beforeEach(() => {
    ui().resetFilter();
    ui().clearTicks();
  });

  it('starts on the unresolved queue, first page, nothing ticked', () => {
    expect(ui().filter).toEqual({ state: 'unresolved' });
    expect(ui().filter).toEqual(DEFAULT_FILTER);
    expect(ui().offset).toBe(0);
    expect(ui().ticked).toEqual({});
  });

  it('ticks and unticks rows, keeping only their natural keys', () => {
    ui().toggle({ ...key(1), state: 'open' } as ExceptionKey);
    expect(Object.values(ui().ticked)).toEqual([key(1)]);
    ui().tickAll([key(1), key(2), key(3)], true);
    expect(Object.keys(ui().ticked)).toEqual([keyId(key(1)), keyId(key(2)), keyId(key(3))]);
    ui().toggle(key(2));
    expect(Object.keys(ui().ticked)).toHaveLength(2);
    ui().tickAll([key(1), key(3)], false);
    expect(ui().ticked).toEqual({});
  });

  it('goes back to the first page and clears the ticks when a filter or the page changes', () => {
    ui().setOffset(400);
    ui().tickAll([key(1)], true);
    ui().setFilter({ pg: 'payu' });
    expect(ui()).toMatchObject({ offset: 0, ticked: {}, filter: { state: 'unresolved', pg: 'payu' } });
    ui().tickAll([key(1)], true);
    ui().setOffset(200);
    expect(ui()).toMatchObject({ offset: 200, ticked: {} });
    // "Any" drops the filter rather than sending an empty value the schema refuses.
    ui().setFilter({ pg: undefined, state: undefined });
    expect(ui().filter).toEqual({});
    expect(queueFilter.safeParse(ui().filter).success).toBe(true);
  });

  it('takes a group as the filters, keeping who it is assigned to', () => {
    ui().setFilter({ assignedTo: 'me' });
    ui().applyGroup({ rule: 'missing_utr', pg: 'payu', date: '2026-06-13', state: 'open' });
    expect(ui().filter).toEqual({
      assignedTo: 'me',
      rule: 'missing_utr',
      pg: 'payu',
      from: '2026-06-13',
      to: '2026-06-13',
      state: 'open',
    });
    expect(queueFilter.safeParse(ui().filter).success).toBe(true);
  });

  it('maps the assignee choice to the filter and back', () => {
    const base = { state: 'open' as const, assignedTo: 'asha' };
    expect(withAssignee(base, { kind: 'unassigned' })).toEqual({ state: 'open', unassigned: true });
    expect(withAssignee(base, { kind: 'me' })).toEqual({ state: 'open', assignedTo: 'me' });
    expect(withAssignee(base, { kind: 'person', name: '  ravi ' })).toEqual({ state: 'open', assignedTo: 'ravi' });
    expect(withAssignee(base, { kind: 'person', name: ' ' })).toEqual({ state: 'open' });
    expect(withAssignee(base, { kind: 'any' })).toEqual({ state: 'open' });
    expect(assigneeOf({ unassigned: true })).toEqual({ kind: 'unassigned' });
    expect(assigneeOf({ assignedTo: 'me' })).toEqual({ kind: 'me' });
    expect(assigneeOf({ assignedTo: 'ravi' })).toEqual({ kind: 'person', name: 'ravi' });
    expect(assigneeOf({})).toEqual({ kind: 'any' });
  });

  it('saves its filters and sort as a view, and applies a view checking each filter as main does', () => {
    ui().setFilter({ rule: 'dispute_open', pg: 'payu', unassigned: true });
    useTableSorts.getState().set(QUEUE_TABLE, { column: 'amount', direction: 'desc' });
    expect(queueViews.current()).toEqual({
      filters: { state: 'unresolved', rule: 'dispute_open', pg: 'payu', unassigned: true },
      sort: { column: 'amount', direction: 'desc' },
    });
    ui().tickAll([key(1)], true);
    queueViews.apply({
      filters: { state: 'open', rule: 'a_rule_from_a_later_version', pg: 'PAYU!', from: '2026-06-01', extra: 'x' },
      sort: null,
      columns: [],
      density: 'compact',
    } as never);
    expect(ui()).toMatchObject({ filter: { state: 'open', from: '2026-06-01' }, ticked: {}, offset: 0 });
    expect(useTableSorts.getState().sorts[QUEUE_TABLE]).toBeNull();
    expect(checkedQueueFilter({ assignedTo: 'me', unassigned: 'yes' })).toEqual({ assignedTo: 'me' });
  });

  it('names a filter in words for the confirmation', () => {
    const date = (d: string) => d.split('-').reverse().join('/');
    expect(describeFilter({ state: 'unresolved' }, date)).toBe('state unresolved');
    expect(
      describeFilter({ unassigned: true, rule: 'missing_utr', pg: 'payu', from: '2026-06-13', to: '2026-06-13' }, date),
    ).toBe('any state, unassigned, rule missing_utr, gateway payu, on 13/06/2026');
    expect(describeFilter({ state: 'open', assignedTo: 'ravi', from: '2026-06-01' }, date)).toBe(
      'state open, assigned to ravi, from 01/06/2026',
    );
  });
});

describe('the screen’s words', () => {
  it('says the result with the count in Indian grouping and the journal entry', () => {
    expect(resultText({ action: 'resolve', count: 123_456, digest: 'a'.repeat(64), journalSeq: 57 })).toBe(
      'Resolved 1,23,456 exceptions — journal entry 57',
    );
    expect(resultText({ action: 'assign', count: 1, digest: 'a'.repeat(64), journalSeq: 3 }, 'ravi')).toBe(
      'Assigned 1 exception to ravi — journal entry 3',
    );
  });

  it('shows a refusal as main said it, a login not re-cased', () => {
    expect(refusalText('mallory is not a person on this desk.')).toBe(
      'Not done: mallory is not a person on this desk.',
    );
  });

  it('says where the console works and as whom', () => {
    expect(deskLine({ mode: 'local', person: 'asha' })).toBe('Working alone as asha');
    const desk = {
      mode: 'desk' as const,
      host: '127.0.0.1',
      database: 'desk',
      person: 'ravi',
      reachable: true,
      role: 'operator' as const,
      writable: true,
      reason: null,
      journalWaiting: 0,
    };
    expect(deskLine(desk)).toBe('Desk 127.0.0.1/desk as ravi (operator)');
    expect(deskLine({ ...desk, reachable: false, reason: 'connection refused' })).toBe(
      'Desk not reachable: Connection refused.',
    );
    expect(deskLine({ ...desk, reachable: false, reason: 'connection refused', journalWaiting: 3 })).toBe(
      'Desk not reachable: Connection refused. 3 journal entries wait for the desk.',
    );
  });

  it('says a record’s age in hours, then days', () => {
    const now = Date.parse('2026-06-15T12:00:00Z');
    expect(ageText('2026-06-15T11:30:00Z', now)).toBe('under 1 h');
    expect(ageText('2026-06-14T12:00:00Z', now)).toBe('24 h');
    expect(ageText('2026-06-13T00:00:00Z', now)).toBe('2 d');
  });
});
