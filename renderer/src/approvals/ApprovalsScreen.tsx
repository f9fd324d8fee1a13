/**
 * The desk's proposals: what waits for this person, their own, every open one, or all; a proposal's review with the
 * frozen request, what the console fetched again to check it, and the steps this person may take on it.
 */
import {
  ACTION_LABELS,
  APPROVAL_SCOPES,
  PROPOSAL_STATE_LABELS,
  type ApprovalScope,
  type Proposal,
} from '../../../shared/approvals';
import { DeskLine } from '../exceptions/DeskLine';
import { loadableOf } from '../query/ipc-query';
import { DataTable, type DataColumn, type TableState } from '../ui/DataTable';
import { formatIstInstant } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';
import { PageHeader } from '../ui/PageHeader';
import { EmptyState } from '../ui/states';
import { useTableSort } from '../ui/table-sorts';
import { useApprovalPolicy, useProposals } from './approvals-queries';
import { useApprovalsUi } from './approvals-store';
import { ProposalReviewPanel } from './ProposalReviewPanel';
import './approvals.css';

const TABLE = 'approvals';

const SCOPE_LABELS: Readonly<Record<ApprovalScope, string>> = {
  waiting: 'Waiting for me',
  mine: 'Mine',
  open: 'Open',
  all: 'All',
};

const EMPTY: Readonly<Record<ApprovalScope, string>> = {
  waiting: 'Nothing waits for your approval',
  mine: 'You have no open proposals',
  open: 'No proposal is open',
  all: 'No proposals yet',
};

/** How long ago a proposal was made, in the largest whole unit: "5 min", "3 h", "2 days". */
export function ageText(madeAt: string, nowMs: number): string {
  const minutes = Math.max(0, Math.floor((nowMs - Date.parse(madeAt)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

const amountText = (p: Proposal) => (p.amount === null ? '—' : formatMoney(p.amount, p.currency ?? 'INR'));

function columns(nowMs: number): DataColumn<Proposal>[] {
  return [
    { id: 'action', label: 'Action', cell: (p) => ACTION_LABELS[p.action], sortValue: (p) => p.action },
    { id: 'summary', label: 'Summary', wrap: true, optional: true, cell: (p) => p.summary },
    { id: 'amount', label: 'Amount', numeric: true, cell: amountText, sortValue: (p) => p.amount },
    { id: 'maker', label: 'Maker', optional: true, cell: (p) => p.maker, sortValue: (p) => p.maker },
    { id: 'age', label: 'Age', optional: true, cell: (p) => ageText(p.madeAt, nowMs), sortValue: (p) => p.madeAt },
    {
      id: 'expires',
      label: 'Expires',
      optional: true,
      cell: (p) => formatIstInstant(p.expiresAt),
      sortValue: (p) => p.expiresAt,
    },
    { id: 'state', label: 'State', cell: (p) => PROPOSAL_STATE_LABELS[p.state], sortValue: (p) => p.state },
  ];
}

function ScopeTabs() {
  const scope = useApprovalsUi((s) => s.scope);
  const setScope = useApprovalsUi((s) => s.setScope);
  return (
    <div className="approvals-scopes" role="group" aria-label="Which proposals">
      {APPROVAL_SCOPES.map((s) => (
        <button key={s} type="button" className="button" aria-pressed={scope === s} onClick={() => setScope(s)}>
          {SCOPE_LABELS[s]}
        </button>
      ))}
    </div>
  );
}

function Proposals() {
  const scope = useApprovalsUi((s) => s.scope);
  const selected = useApprovalsUi((s) => s.selected);
  const select = useApprovalsUi((s) => s.select);
  const [sort, setSort] = useTableSort(TABLE);
  const query = useProposals(scope);
  const list = loadableOf(query);
  const rows = list.status === 'ready' ? list.value : [];
  const state: TableState =
    list.status === 'loading'
      ? { kind: 'loading', label: 'Loading the proposals' }
      : list.status === 'failed'
        ? { kind: 'error', error: list.error, retry: () => void query.refetch() }
        : rows.length === 0
          ? { kind: 'empty', title: EMPTY[scope] }
          : { kind: 'ready' };
  // The list's time: ages are as of its answer, so they do not tick while nothing was read again.
  const asOf = query.dataUpdatedAt;
  return (
    <>
      <DataTable
        id={TABLE}
        label="Proposals"
        columns={columns(asOf)}
        rows={rows}
        rowKey={(p) => p.id}
        state={state}
        sort={sort}
        onSort={setSort}
        filters={<ScopeTabs />}
        currentKey={selected}
        onOpen={(p) => select(p.id === selected ? null : p.id)}
        onEscape={() => select(null)}
      />
      {selected && <ProposalReviewPanel id={selected} onClose={() => select(null)} />}
    </>
  );
}

export function ApprovalsScreen() {
  const policy = useApprovalPolicy();
  return (
    <div className="approvals">
      <PageHeader title="Approvals" skipTo="the proposals" />
      <DeskLine />
      {policy.data?.mode === 'local' ? (
        <EmptyState title="Approvals need a desk">
          This profile works alone, so every action is sent as it is confirmed. Join a desk (desk join on the command
          line) to have a second person approve money actions.
        </EmptyState>
      ) : (
        <>
          {policy.data?.mode === 'desk' && !policy.data.holdsSecret && (
            <p className="notice" role="note">
              This console holds no API secret for this profile, as a desk that keeps the secret on approvers&apos;
              consoles sets it up: here you propose, review and reconcile from the desk&apos;s data. Approving, sending
              an action the policy lets through, a full refund without a typed amount, capturing or processing an order,
              syncing and balances need a console that holds the secret.
            </p>
          )}
          <Proposals />
        </>
      )}
    </div>
  );
}
