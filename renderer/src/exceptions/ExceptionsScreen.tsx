import { useEffect, useMemo, useState } from 'react';
import { EXCEPTION_STATES, type QueueFilter, type QueueGroup, type QueueRow } from '../../../shared/desk';
import { QUEUE_PAGE_SIZE } from '../../../shared/ipc/exceptions';
import { RULE_IDS } from '../../../shared/reconciliation';
import { ipcErrorOf, useActiveProfileId } from '../query/ipc-query';
import { DataTable, type DataColumn, type TableState } from '../ui/DataTable';
import { DateInput } from '../ui/DateInput';
import { FilterSelect } from '../ui/FilterSelect';
import { formatCalendarDate, formatCount } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';
import { PageHeader } from '../ui/PageHeader';
import { useSavedViews } from '../ui/saved-views';
import { SavedViewsMenu } from '../ui/SavedViewsMenu';
import { useTableSort } from '../ui/table-sorts';
import { BulkActions } from './BulkActions';
import { DeskLine } from './DeskLine';
import { useQueue } from './exceptions-queries';
import {
  QUEUE_TABLE,
  assigneeOf,
  keyId,
  queueViews,
  useExceptionsUi,
  withAssignee,
  type AssigneeChoice,
} from './exceptions-store';
import './exceptions.css';

const STATE_OPTIONS: [string, string][] = [
  ['unresolved', 'Unresolved'],
  ...EXCEPTION_STATES.map((s): [string, string] => [s, s.charAt(0).toUpperCase() + s.slice(1)]),
];
const RULE_OPTIONS: [string, string][] = RULE_IDS.map((r) => [r, r.replace(/_/g, ' ')]);

/** How long a record has been in the queue: "3 d", "5 h", "under 1 h". */
export function ageText(firstSeenAt: string, now: number): string {
  const hours = Math.floor((now - Date.parse(firstSeenAt)) / 3_600_000);
  if (!Number.isFinite(hours) || hours < 1) return 'under 1 h';
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} d`;
}

function columns(ticked: Record<string, unknown>, toggle: (r: QueueRow) => void, now: number): DataColumn<QueueRow>[] {
  return [
    {
      id: 'tick',
      label: 'Tick',
      cell: (r) => (
        <input
          type="checkbox"
          tabIndex={-1}
          aria-label={`Tick ${r.pg} ${r.pgTransactionId}`}
          checked={Boolean(ticked[keyId(r)])}
          onClick={(e) => e.stopPropagation()}
          onChange={() => toggle(r)}
        />
      ),
    },
    { id: 'date', label: 'Date', cell: (r) => formatCalendarDate(r.date), sortValue: (r) => r.date },
    { id: 'pg', label: 'Gateway', cell: (r) => r.pg, sortValue: (r) => r.pg },
    {
      id: 'txn',
      label: 'Transaction id',
      mono: true,
      cell: (r) => r.pgTransactionId,
      sortValue: (r) => r.pgTransactionId,
    },
    {
      id: 'rules',
      label: 'Rules',
      optional: true,
      cell: (r) => <span className="exceptions-rules">{r.rules.map((x) => x.replace(/_/g, ' ')).join(', ')}</span>,
      sortValue: (r) => r.rules.join(','),
    },
    {
      id: 'amount',
      label: 'At risk',
      numeric: true,
      cell: (r) => formatMoney(r.amountAtRisk),
      sortValue: (r) => r.amountAtRisk,
    },
    {
      id: 'state',
      label: 'State',
      cell: (r) => <span className={`exceptions-state exceptions-state-${r.state}`}>{r.state}</span>,
      sortValue: (r) => r.state,
    },
    {
      id: 'assignee',
      label: 'Assignee',
      optional: true,
      cell: (r) => r.assignee ?? <span className="muted">—</span>,
      sortValue: (r) => r.assignee,
    },
    {
      id: 'note',
      label: 'Note',
      optional: true,
      cell: (r) => (r.note ? <span className="exceptions-note-cell">{r.note}</span> : ''),
      sortValue: (r) => r.note,
    },
    {
      id: 'age',
      label: 'Age',
      numeric: true,
      optional: true,
      cell: (r) => ageText(r.firstSeenAt, now),
      sortValue: (r) => -Date.parse(r.firstSeenAt),
    },
  ];
}

function Filters({ filter, gateways }: { filter: QueueFilter; gateways: readonly string[] }) {
  const setFilter = useExceptionsUi((s) => s.setFilter);
  const replaceFilter = useExceptionsUi((s) => s.replaceFilter);
  const resetFilter = useExceptionsUi((s) => s.resetFilter);
  const who = assigneeOf(filter);
  const [person, setPerson] = useState(who.kind === 'person' ? who.name : '');
  const [choice, setChoice] = useState<AssigneeChoice['kind']>(who.kind);
  // A group click or a reset replaces the filter from outside: the assignee fields follow it.
  const [seen, setSeen] = useState(filter);
  if (seen !== filter) {
    setSeen(filter);
    if (who.kind !== 'any' || choice !== 'person') setChoice(who.kind);
    if (who.kind === 'person') setPerson(who.name);
  }

  function setAssignee(kind: AssigneeChoice['kind'], name = person) {
    setChoice(kind);
    replaceFilter(withAssignee(filter, kind === 'person' ? { kind, name } : ({ kind } as AssigneeChoice)));
  }

  return (
    <div className="exceptions-filters" role="search" aria-label="Filter the exceptions">
      <FilterSelect
        label="State"
        value={filter.state}
        options={STATE_OPTIONS}
        onChange={(v) => setFilter({ state: v as QueueFilter['state'] })}
      />
      <span className="filter-select">
        <label htmlFor="exceptions-assignee">Assigned</label>{' '}
        <select
          id="exceptions-assignee"
          className="input"
          value={choice}
          onChange={(e) => setAssignee(e.target.value as AssigneeChoice['kind'])}
        >
          <option value="any">Anyone</option>
          <option value="me">To me</option>
          <option value="unassigned">To no one</option>
          <option value="person">To a person…</option>
        </select>
      </span>
      {choice === 'person' && (
        <span className="filter-select">
          <label htmlFor="exceptions-person">Person</label>{' '}
          <input
            id="exceptions-person"
            className="input exceptions-person"
            value={person}
            maxLength={120}
            autoComplete="off"
            data-search
            onChange={(e) => {
              setPerson(e.target.value);
              replaceFilter(withAssignee(filter, { kind: 'person', name: e.target.value }));
            }}
          />
        </span>
      )}
      <FilterSelect
        label="Rule"
        value={filter.rule}
        options={RULE_OPTIONS}
        onChange={(v) => setFilter({ rule: v as QueueFilter['rule'] })}
      />
      <FilterSelect
        label="Gateway"
        value={filter.pg}
        options={gateways.map((g) => [g, g])}
        onChange={(v) => setFilter({ pg: v })}
      />
      <span className="filter-select">
        <label htmlFor="exceptions-from">From</label>{' '}
        <DateInput
          id="exceptions-from"
          className="exceptions-date"
          value={filter.from ?? ''}
          onChange={(d) => setFilter({ from: d ?? undefined })}
        />
      </span>
      <span className="filter-select">
        <label htmlFor="exceptions-to">To</label>{' '}
        <DateInput
          id="exceptions-to"
          className="exceptions-date"
          value={filter.to ?? ''}
          onChange={(d) => setFilter({ to: d ?? undefined })}
        />
      </span>
      <button
        type="button"
        className="button button-quiet"
        onClick={() => {
          setChoice('any');
          setPerson('');
          resetFilter();
        }}
      >
        Clear filters
      </button>
    </div>
  );
}

function GroupsPanel({ groups, onPick }: { groups: readonly QueueGroup[]; onPick(g: QueueGroup): void }) {
  return (
    <section className="exceptions-groups" aria-label="Groups">
      <h2>Groups</h2>
      <p className="muted exceptions-groups-hint">Rule × gateway × date × state. Choose one to filter by it.</p>
      {groups.length === 0 ? (
        <p className="muted">No groups: nothing matches.</p>
      ) : (
        <ul>
          {groups.map((g) => (
            <li key={[g.rule, g.pg, g.date, g.state].join('|')}>
              <button type="button" className="exceptions-group" onClick={() => onPick(g)}>
                <span className="exceptions-group-head">
                  {g.rule.replace(/_/g, ' ')} · {g.pg}
                </span>
                <span className="exceptions-group-line">
                  {formatCalendarDate(g.date)} · {g.state} · {formatCount(g.count)} ·{' '}
                  <span className="money">{formatMoney(g.amountAtRisk)}</span>
                </span>
                <span className="exceptions-group-line muted">
                  {g.owners.length > 0 ? `Owners: ${g.owners.join(', ')}` : 'No owner'}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ExceptionsScreen() {
  const profileId = useActiveProfileId();
  const filter = useExceptionsUi((s) => s.filter);
  const offset = useExceptionsUi((s) => s.offset);
  const ticked = useExceptionsUi((s) => s.ticked);
  const toggle = useExceptionsUi((s) => s.toggle);
  const tickAll = useExceptionsUi((s) => s.tickAll);
  const setOffset = useExceptionsUi((s) => s.setOffset);
  const applyGroup = useExceptionsUi((s) => s.applyGroup);
  const clearTicks = useExceptionsUi((s) => s.clearTicks);
  const [sort, setSort] = useTableSort(QUEUE_TABLE);
  const queue = useQueue(filter, offset);
  const views = useSavedViews(QUEUE_TABLE, queueViews);
  const [now, setNow] = useState(() => Date.now());

  // Ticks belong to the profile they were made on.
  useEffect(() => clearTicks(), [profileId, clearTicks]);
  // Ages move on while the screen stays open.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);

  // Every gateway seen on this profile, so a chosen one does not empty the list of the others.
  const page = queue.data;
  const [gateways, setGateways] = useState<string[]>([]);
  const [gatewaysOf, setGatewaysOf] = useState(page);
  if (page !== gatewaysOf) {
    setGatewaysOf(page);
    const more = (page?.groups ?? []).map((g) => g.pg).filter((pg) => !gateways.includes(pg));
    if (more.length > 0) setGateways([...new Set([...gateways, ...more])].sort());
  }

  const rows = useMemo(() => page?.rows ?? [], [page]);
  const cols = useMemo(() => columns(ticked, toggle, now), [ticked, toggle, now]);
  const tickedKeys = Object.values(ticked);
  const allOnPage = rows.length > 0 && rows.every((r) => ticked[keyId(r)]);

  const state: TableState = queue.isError
    ? { kind: 'error', error: ipcErrorOf(queue.error), retry: () => void queue.refetch() }
    : !page
      ? { kind: 'loading', label: 'Loading the exceptions' }
      : rows.length === 0
        ? { kind: 'empty', title: 'No exceptions match', children: 'Change or clear the filters, or sync more dates.' }
        : { kind: 'ready' };

  const total = page?.total ?? 0;
  const last = Math.min(offset + QUEUE_PAGE_SIZE, total);

  return (
    <div className="screen exceptions-screen">
      <PageHeader title="Exceptions" skipTo="the exceptions">
        <SavedViewsMenu table={QUEUE_TABLE} binding={queueViews} views={views} />
      </PageHeader>
      <DeskLine />
      <Filters filter={filter} gateways={gateways} />
      <div className="exceptions-layout">
        <div className="exceptions-summary">
          <p className="exceptions-totals" role="status" aria-label="Filtered set">
            {page ? (
              <>
                <strong>{formatCount(total)}</strong> exception{total === 1 ? '' : 's'} ·{' '}
                <strong className="money">{formatMoney(page.amountAtRisk)}</strong> at risk
              </>
            ) : (
              'Counting…'
            )}
          </p>
          <BulkActions filter={filter} ticked={tickedKeys} total={total} onDone={clearTicks} />
        </div>
        <GroupsPanel groups={page?.groups ?? []} onPick={applyGroup} />
        <div className="exceptions-list">
          <div className="exceptions-page-tools">
            <label>
              <input
                type="checkbox"
                checked={allOnPage}
                disabled={rows.length === 0}
                onChange={() => tickAll(rows, !allOnPage)}
              />
              Tick all on this page
            </label>
            <span className="muted">Space or Enter on a row ticks it.</span>
            <span className="spacer" />
            <span className="muted" aria-live="polite">
              {total > 0 ? `Rows ${formatCount(offset + 1)}–${formatCount(last)} of ${formatCount(total)}` : ''}
            </span>
            <button
              type="button"
              className="button"
              disabled={offset === 0}
              onClick={() => setOffset(offset - QUEUE_PAGE_SIZE)}
            >
              Previous page
            </button>
            <button
              type="button"
              className="button"
              disabled={last >= total}
              onClick={() => setOffset(offset + QUEUE_PAGE_SIZE)}
            >
              Next page
            </button>
          </div>
          <DataTable
            id={QUEUE_TABLE}
            label="Exceptions"
            columns={cols}
            rows={rows}
            rowKey={keyId}
            state={state}
            sort={sort}
            onSort={setSort}
            onOpen={toggle}
            rowClass={(r) => (ticked[keyId(r)] ? 'exceptions-ticked' : undefined)}
          />
        </div>
      </div>
    </div>
  );
}
