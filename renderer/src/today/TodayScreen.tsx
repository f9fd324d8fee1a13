/**
 * Today, the console's home (`g h`): one panel per question the desk asks each morning, each figure the figure of the
 * screen its row opens (main takes each from that screen's own module: electron/today/today.ts), each panel dated by
 * its source. Everything is read from the cache (and the desk), so offline the same panels show, dated; "Refresh all"
 * needs the service and says so. A profile never synced sees the first-run card first.
 */
import type { ReactNode } from 'react';
import type { IpcOutput } from '../../../shared/ipc/contract';
import { RULES, type RuleId } from '../../../shared/reconciliation';
import type { RefreshPart } from '../../../shared/today';
import { useNavigation } from '../navigation/navigation-store';
import type { Screen } from '../navigation/screens';
import { AsOf } from '../ui/AsOf';
import { formatCalendarDate, formatCount, formatIstInstant } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';
import { OfflineBanner } from '../ui/OfflineBanner';
import { useOfflineReason } from '../ui/offline';
import { PageHeader } from '../ui/PageHeader';
import { ErrorNotice, Skeleton } from '../ui/states';
import { WholeNumberField } from '../ui/WholeNumberField';
import { WelcomePanel } from '../WelcomePanel';
import { useCancelRefresh, useRefreshAll, useSetRefreshDays, useTodaySummary } from './today-queries';
import './today.css';

type Summary = IpcOutput<'today.summary'>;
type PanelOf<K extends keyof Summary> = Summary[K];
type AnyPanel = { data: unknown; asOf: string | null; error: string | null };

const PART_LABELS: Record<RefreshPart, string> = {
  balances: 'Balances',
  sync: 'Settlement sync',
  watch: 'Watch list',
};

/** A row that opens the screen acting on it, as the sidebar would. */
function Row({
  screen,
  label,
  value,
  testId,
}: {
  screen: string;
  label: ReactNode;
  value: ReactNode;
  testId?: string;
}) {
  const open = useNavigation((s) => s.open);
  return (
    <li className="today-row">
      <button type="button" className="today-link" onClick={() => open(screen)}>
        <span className="today-label">{label}</span>
        <span className="today-value" data-testid={testId}>
          {value}
        </span>
      </button>
    </li>
  );
}

function Panel({
  id,
  title,
  panel,
  failure,
  empty,
  children,
}: {
  id: string;
  title: string;
  panel: AnyPanel;
  /** The failure of the "Refresh all" part that feeds this panel. */
  failure?: string | null;
  empty: string;
  children: ReactNode;
}) {
  return (
    <section className="panel today-panel" aria-labelledby={`today-${id}`} data-testid={`today-${id}`}>
      <header className="today-panel-head">
        <h2 id={`today-${id}`}>{title}</h2>
        {panel.data !== null && panel.asOf !== null && <AsOf at={panel.asOf} />}
      </header>
      {failure && (
        <p className="notice notice-warning today-failure" role="status">
          Refresh failed: {failure}
        </p>
      )}
      {panel.error !== null ? (
        <p className="error" role="alert">
          Not read: {panel.error}
        </p>
      ) : panel.data === null ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="today-rows">{children}</ul>
      )}
    </section>
  );
}

const countMoney = (f: { count: number; amount: number }) => `${formatCount(f.count)} · ${formatMoney(f.amount)}`;

function PayablePanel({ p, failure }: { p: PanelOf<'payable'>; failure: string | null }) {
  const d = p.data;
  return (
    <Panel id="payable" title="Payable now" panel={p} failure={failure} empty="No balances yet: refresh them.">
      {d && (
        <>
          <Row
            screen="accounts"
            label="Total, after pending payouts"
            value={formatMoney(d.total.afterPending)}
            testId="today-payable-total"
          />
          {d.gateways.map((g) => (
            <Row
              key={g.pg}
              screen="accounts"
              label={
                <>
                  {g.pg}
                  {g.low && <span className="today-tag today-tag-warn">Low headroom</span>}
                </>
              }
              value={g.afterPending === null ? 'No figure yet' : formatMoney(g.afterPending)}
              testId={`today-payable-${g.pg}`}
            />
          ))}
          <Row
            screen="payouts"
            label="Pending payouts"
            value={countMoney({ count: d.total.pendingCount, amount: d.total.pending })}
            testId="today-pending"
          />
        </>
      )}
    </Panel>
  );
}

function NotArrivedPanel({ p, failure }: { p: PanelOf<'notArrived'>; failure: string | null }) {
  const d = p.data;
  return (
    <Panel id="not-arrived" title="Money not arrived" panel={p} failure={failure} empty="Nothing synced yet.">
      {d && d.accounts.length === 0 && <li className="muted">No bank statement imported yet.</li>}
      {d?.accounts.map((a) => (
        <li key={a.account} className="today-group">
          <span className="today-group-name">
            {a.account}
            <span className="muted">
              {' '}
              · {formatCalendarDate(d.from)} to {formatCalendarDate(d.to)}
            </span>
          </span>
          {a.noStatementDays !== null && (
            <span className="today-tag today-tag-warn" data-testid="today-no-statement">
              No statement for {formatCount(a.noStatementDays)} days
            </span>
          )}
          <ul className="today-rows">
            <Row
              screen="reconciliation"
              label="Batches without a credit (overdue)"
              value={countMoney(a.overdue)}
              testId="today-overdue"
            />
            <Row screen="reconciliation" label="Amount differs" value={countMoney(a.differs)} testId="today-differs" />
            <Row
              screen="reconciliation"
              label="Credits without a batch"
              value={countMoney(a.unmatched)}
              testId="today-unmatched"
            />
          </ul>
        </li>
      ))}
    </Panel>
  );
}

function ExceptionsPanel({ p }: { p: PanelOf<'exceptions'> }) {
  const d = p.data;
  return (
    <Panel id="exceptions" title="Exceptions" panel={p} empty="Nothing synced yet.">
      {d && (
        <>
          <Row screen="exceptions" label="Open, amount at risk" value={countMoney(d.open)} testId="today-open" />
          <Row screen="exceptions" label="Assigned to me" value={countMoney(d.assignedToMe)} testId="today-mine" />
          <Row
            screen="exceptions"
            label="Oldest open"
            value={
              d.oldestDate === null
                ? 'None open'
                : `${formatCalendarDate(d.oldestDate)} (${formatCount(d.oldestDays ?? 0)} days)`
            }
            testId="today-oldest"
          />
          {d.byRule.map((r) => (
            <Row
              key={r.rule}
              screen="exceptions"
              label={RULES[r.rule as RuleId] ?? r.rule}
              value={countMoney(r)}
              testId={`today-rule-${r.rule}`}
            />
          ))}
        </>
      )}
    </Panel>
  );
}

function ApprovalsAndWatch({ s, failure }: { s: Summary; failure: string | null }) {
  const a = s.approvals.data;
  const w = s.watch.data;
  return (
    <>
      {s.mode === 'desk' && (
        <Panel id="approvals" title="Approvals" panel={s.approvals} empty="">
          {a && (
            <>
              <Row screen="approvals" label="Waiting for me" value={formatCount(a.waiting)} testId="today-waiting" />
              <Row screen="approvals" label="Mine, waiting for someone" value={formatCount(a.mine)} />
              <Row screen="approvals" label="Expiring today" value={formatCount(a.expiringToday)} />
            </>
          )}
        </Panel>
      )}
      <Panel id="watch" title="Payouts to watch" panel={s.watch} failure={failure} empty="Nothing synced yet.">
        {w && (
          <>
            <Row
              screen="payouts"
              label="Pending past their expected time"
              value={formatCount(w.overdue)}
              testId="today-watch-overdue"
            />
            <Row screen="payouts" label="Pending, watched" value={formatCount(w.watching)} />
            {w.paused && <li className="muted">{w.paused}</li>}
          </>
        )}
      </Panel>
    </>
  );
}

const at = (iso: string | null) => (iso === null ? 'Never' : formatIstInstant(iso));

function FreshnessPanel({ p, failure }: { p: PanelOf<'freshness'>; failure: string | null }) {
  const d = p.data;
  const changed = d ? d.changes.new + d.changes.changed + d.changes.vanished + d.changes.returned : 0;
  return (
    <Panel id="freshness" title="Freshness" panel={p} failure={failure} empty="Nothing synced yet.">
      {d && (
        <>
          <Row
            screen="settlements"
            label="Settlements synced"
            value={at(d.settlementsSyncedAt)}
            testId="today-synced"
          />
          <Row
            screen="settlements"
            label="Recent dates not complete"
            value={d.incomplete.length === 0 ? 'None' : d.incomplete.map((x) => formatCalendarDate(x.date)).join(', ')}
            testId="today-incomplete"
          />
          <Row
            screen="settlements"
            label="Records changed since first synced"
            value={formatCount(changed)}
            testId="today-changes"
          />
          <Row screen="accounts" label="Balances refreshed" value={at(d.balancesAt)} testId="today-balances-at" />
          <Row
            screen="journal"
            label="Journal verified"
            value={
              d.journalVerify === null
                ? 'Never'
                : `${at(d.journalVerify.at)}, ${d.journalVerify.ok ? 'holds' : 'does not hold'}`
            }
            testId="today-verified"
          />
          <Row
            screen="journal"
            label="Periods closed · changed after close"
            value={`${formatCount(d.periods.closed)} · ${formatCount(d.periods.changed.length)}`}
            testId="today-periods"
          />
        </>
      )}
    </Panel>
  );
}

function RefreshControls({ s }: { s: Summary }) {
  const offline = useOfflineReason();
  const refresh = useRefreshAll();
  const cancel = useCancelRefresh();
  const setDays = useSetRefreshDays();
  const r = s.refresh;
  const running = r?.running === true;
  return (
    <>
      <WholeNumberField
        label="Sync the last"
        suffix="days"
        value={s.refreshDays}
        max={31}
        onSave={(days) => days >= 1 && setDays.mutate({ days })}
      />
      {running ? (
        <button type="button" className="button" onClick={() => cancel.mutate({ jobId: r.jobId })}>
          Cancel refresh
        </button>
      ) : (
        <button
          type="button"
          className="button button-primary"
          disabled={offline !== null || refresh.isPending}
          title={offline ?? undefined}
          onClick={() => refresh.mutate({})}
        >
          Refresh all
        </button>
      )}
    </>
  );
}

function RefreshProgress({ r }: { r: NonNullable<Summary['refresh']> }) {
  return (
    <ol className="today-progress" aria-label="Refresh all" data-testid="today-progress">
      {r.parts.map((p) => (
        <li key={p.part} className={`today-part today-part-${p.state}`}>
          {PART_LABELS[p.part]}: {p.state}
        </li>
      ))}
    </ol>
  );
}

export function TodayScreen() {
  const summary = useTodaySummary();
  const open = useNavigation((s) => s.open);
  const s = summary.data;
  const failure = (part: RefreshPart) =>
    s?.refresh?.parts.find((p) => p.part === part && p.state === 'failed')?.error ?? null;
  return (
    <div className="screen today-screen">
      <OfflineBanner />
      <PageHeader title="Today" asOf={s && <span className="as-of muted">{formatCalendarDate(s.today)}</span>}>
        {s && <RefreshControls s={s} />}
      </PageHeader>
      {summary.isPending && <Skeleton rows={6} label="Reading today’s figures" />}
      {summary.isError && <ErrorNotice error={summary.error.error} onRetry={() => void summary.refetch()} />}
      {s && (
        <>
          {s.refresh && <RefreshProgress r={s.refresh} />}
          {s.firstRun && <WelcomePanel onOpen={(screen: Screen) => open(screen.id)} />}
          <div className="today-grid">
            <PayablePanel p={s.payable} failure={failure('balances')} />
            <NotArrivedPanel p={s.notArrived} failure={failure('sync')} />
            <ExceptionsPanel p={s.exceptions} />
            <ApprovalsAndWatch s={s} failure={failure('watch')} />
            <FreshnessPanel p={s.freshness} failure={failure('sync')} />
          </div>
        </>
      )}
    </div>
  );
}
