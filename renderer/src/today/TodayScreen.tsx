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
import { useApprovalsUi } from '../approvals/approvals-store';
import { useExceptionsUi } from '../exceptions/exceptions-store';
import { useNavigation } from '../navigation/navigation-store';
import type { Screen } from '../navigation/screens';
import { useChangesDialog } from '../settlements/changes-store';
import { useSettlements } from '../settlements/settlements-store';
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

/** A row that opens the screen acting on it, as the sidebar would; `prepare` first sets that screen to the figure's view. */
function Row({
  screen,
  label,
  value,
  testId,
  prepare,
  wrap = false,
  attention = false,
}: {
  screen: string;
  label: ReactNode;
  value: ReactNode;
  testId?: string;
  prepare?: () => void;
  /** A list (of dates) that may take more than one line; a figure never breaks. */
  wrap?: boolean;
  /** Something waits for a person (a count above zero of what should be none): the figure stands out. */
  attention?: boolean;
}) {
  const open = useNavigation((s) => s.open);
  return (
    <li className="today-row">
      <button
        type="button"
        className="today-link"
        onClick={() => {
          prepare?.();
          open(screen);
        }}
      >
        <span className="today-label">{label}</span>
        <span
          className={['today-value', wrap && 'today-value-list', attention && 'today-value-attention']
            .filter(Boolean)
            .join(' ')}
          data-testid={testId}
        >
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
              attention={a.overdue.count > 0}
              testId="today-overdue"
            />
            <Row
              screen="reconciliation"
              label="Amount differs"
              value={countMoney(a.differs)}
              testId="today-differs"
              attention={a.differs.count > 0}
            />
            <Row
              screen="reconciliation"
              label="Credits without a batch"
              value={countMoney(a.unmatched)}
              attention={a.unmatched.count > 0}
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
  // Each row opens the queue filtered to the exceptions it counts.
  const show = useExceptionsUi((u) => u.replaceFilter);
  return (
    <Panel id="exceptions" title="Exceptions" panel={p} empty="Nothing synced yet.">
      {d && (
        <>
          <Row
            screen="exceptions"
            prepare={() => show({ state: 'open' })}
            label="Open, amount at risk"
            value={countMoney(d.open)}
            testId="today-open"
          />
          <Row
            screen="exceptions"
            prepare={() => show({ state: 'unresolved', assignedTo: 'me' })}
            label="Assigned to me"
            value={countMoney(d.assignedToMe)}
            testId="today-mine"
          />
          <Row
            screen="exceptions"
            prepare={() => show({ state: 'open' })}
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
              prepare={() => show({ state: 'open', rule: r.rule as RuleId })}
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
  // Each count opens the Approvals screen on the proposals it counts.
  const setScope = useApprovalsUi((u) => u.setScope);
  const a = s.approvals.data;
  const w = s.watch.data;
  return (
    <>
      {s.mode === 'desk' && (
        <Panel id="approvals" title="Approvals" panel={s.approvals} empty="">
          {a && (
            <>
              <Row
                screen="approvals"
                prepare={() => setScope('waiting')}
                label="Waiting for me"
                value={formatCount(a.waiting)}
                attention={a.waiting > 0}
                testId="today-waiting"
              />
              <Row
                screen="approvals"
                prepare={() => setScope('mine')}
                label="Mine, waiting for someone"
                value={formatCount(a.mine)}
                testId="today-approvals-mine"
              />
              <Row
                screen="approvals"
                prepare={() => setScope('open')}
                label="Expiring within 24 hours"
                value={formatCount(a.expiringToday)}
                testId="today-expiring"
              />
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
              attention={w.overdue > 0}
              testId="today-watch-overdue"
            />
            <Row
              screen="payouts"
              label="Pending, watched"
              value={formatCount(w.watching)}
              testId="today-watch-pending"
            />
            {/* The paused round's sentence, unless "Refresh all" already shows it as its watch part's failure. */}
            {w.paused && w.paused !== failure && <li className="muted">{w.paused}</li>}
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
  const setRange = useSettlements((s) => s.setRange);
  const showChanges = useChangesDialog((s) => s.show);
  // Settlements opens on these same dates, every gateway: its "Synced" is the figure here; with the changes and
  // completeness shown, so are theirs.
  const period = () => {
    if (d) setRange({ from: d.from, to: d.to, pg: null });
  };
  const changesOfPeriod = () => {
    if (!d) return;
    period();
    showChanges(null);
  };
  return (
    <Panel id="freshness" title="Freshness" panel={p} failure={failure} empty="Nothing synced yet.">
      {d && (
        <>
          <Row
            screen="settlements"
            prepare={period}
            label="Settlements synced"
            value={at(d.settlementsSyncedAt)}
            testId="today-synced"
          />
          <Row
            screen="settlements"
            prepare={changesOfPeriod}
            wrap
            label="Recent dates not complete"
            value={d.incomplete.length === 0 ? 'None' : d.incomplete.map((x) => formatCalendarDate(x.date)).join(', ')}
            testId="today-incomplete"
          />
          <Row
            screen="settlements"
            prepare={changesOfPeriod}
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
            attention={d.periods.changed.length > 0}
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
          {/* Two columns of about equal height, so every panel fits 1280×800 without a gap beside a short one. */}
          <div className="today-grid">
            <div className="today-column">
              <PayablePanel p={s.payable} failure={failure('balances')} />
              <ExceptionsPanel p={s.exceptions} />
            </div>
            <div className="today-column">
              <NotArrivedPanel p={s.notArrived} failure={failure('sync')} />
              <ApprovalsAndWatch s={s} failure={failure('watch')} />
              <FreshnessPanel p={s.freshness} failure={failure('sync')} />
            </div>
          </div>
        </>
      )}
    </div>
  );
}
