/**
 * "Payable now" on the Accounts screen: per gateway and in total, available − minimum, with and without the
 * overdraft, the pending payouts the console knows beside it and what is left after them (shared/headroom.ts, in
 * main, from the cache: it works offline). A gateway whose last answer was an error shows its last good figure with
 * its age, marked; one that never gave a figure shows "—" with why, never a zero it did not report. Each gateway may have a low-headroom alert, exact in rupees, kept in the profile's cache; a
 * gateway below it is marked here and in the status bar on every screen.
 */
import { useId, useState, type FormEvent } from 'react';
import type { GatewayHeadroom } from '../../../shared/headroom';
import { formatRupeesTyped } from '../../../shared/rupees';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { useTableSort } from '../ui/table-sorts';
import { formatIstInstant } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';
import { RupeesField } from '../ui/RupeesField';
import { ErrorNotice } from '../ui/states';
import { useConnectivity } from '../query/app-queries';
import { useHeadroom, useHeadroomThreshold } from './accounts-queries';
import { parseThreshold } from './low-balance';

/** The payable-now table's id: its sort, columns and the Accounts screen's saved views are kept under it. */
export const PAYABLE_TABLE = 'accounts-payable';

/** How old a figure is, in the largest whole unit: "3 h old". */
export function ageText(iso: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutes < 60) return `${minutes} min old`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h old`;
  return `${Math.floor(minutes / 1440)} days old`;
}

/** Why a gateway has no figure, and how old its last good one is (it has none). */
export function noFigureReason(g: GatewayHeadroom): string {
  const why = g.stale ? `the gateway answered “${g.stale.message}”` : 'the gateway has not answered yet';
  return `No figure: ${why}, and there is no earlier good figure.`;
}

/** A figure of the payable-now table: "—" with the reason when the gateway gave none, never ₹0.00. */
export function figureCell(g: GatewayHeadroom, value: number | null) {
  if (value === null) {
    const reason = noFigureReason(g);
    return (
      <span className="acct-stale" title={reason} aria-label={reason}>
        —
      </span>
    );
  }
  return <span className="money">{formatMoney(value)}</span>;
}

export function columns(now: number): DataColumn<GatewayHeadroom>[] {
  const money = (v: number) => <span className="money">{formatMoney(v)}</span>;
  return [
    {
      id: 'pg',
      label: 'Gateway',
      cell: (g) => (
        <span>
          {g.pg}
          {g.low && <span className="acct-badge acct-badge-low"> Low headroom</span>}
        </span>
      ),
      sortValue: (g) => g.pg,
    },
    {
      id: 'payable',
      label: 'Payable now',
      numeric: true,
      cell: (g) => figureCell(g, g.payable),
      sortValue: (g) => g.payable,
    },
    {
      id: 'overdraft',
      label: 'With overdraft',
      numeric: true,
      cell: (g) => figureCell(g, g.payableWithOverdraft),
      sortValue: (g) => g.payableWithOverdraft,
    },
    {
      id: 'pending',
      label: 'Pending payouts',
      numeric: true,
      cell: (g) => (
        <span>
          {money(g.pending)} <span className="muted">({g.pendingCount})</span>
        </span>
      ),
      sortValue: (g) => g.pending,
    },
    {
      id: 'after',
      label: 'After pending',
      numeric: true,
      cell: (g) => figureCell(g, g.afterPending),
      sortValue: (g) => g.afterPending,
    },
    {
      id: 'threshold',
      label: 'Alert below',
      numeric: true,
      optional: true,
      cell: (g) => (g.threshold === null ? <span className="muted">—</span> : money(g.threshold)),
      sortValue: (g) => g.threshold,
    },
    {
      id: 'asof',
      label: 'Figures of',
      // A stale gateway's sentence is the point of its row: wrapped, so the table is never cut at 1280 px.
      wrap: true,
      cell: (g) =>
        g.stale ? (
          <span className="acct-stale" title={`The gateway answered: ${g.stale.message}`}>
            {g.asOf
              ? `Last good figure, ${formatIstInstant(g.asOf)} (${ageText(g.asOf, now)}); `
              : 'No good figure yet; '}
            the gateway answered “{g.stale.message}”
          </span>
        ) : g.asOf ? (
          formatIstInstant(g.asOf)
        ) : (
          <span className="muted">—</span>
        ),
      sortValue: (g) => g.asOf,
    },
  ];
}

function ThresholdByGateway({ gateways }: { gateways: readonly GatewayHeadroom[] }) {
  const save = useHeadroomThreshold();
  // The field shows the chosen gateway's alert as the desk types amounts, so a saved alert reads as it was typed.
  const typed = (g: GatewayHeadroom | undefined) => (g?.threshold == null ? '' : formatRupeesTyped(g.threshold));
  const [pg, setPg] = useState(gateways[0]?.pg ?? '');
  const [draft, setDraft] = useState(() => typed(gateways[0]));
  const [error, setError] = useState<string>();
  const selectId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseThreshold(draft);
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    setError(undefined);
    save.mutate({ pg, threshold: parsed.minor });
    setDraft(parsed.minor === null ? '' : formatRupeesTyped(parsed.minor));
  }

  return (
    <form className="acct-headroom-threshold" onSubmit={submit} noValidate aria-label="Low-headroom alert">
      <div className="field">
        <label htmlFor={selectId}>Gateway</label>
        <select
          id={selectId}
          className="input"
          value={pg}
          onChange={(e) => {
            setPg(e.target.value);
            setDraft(typed(gateways.find((g) => g.pg === e.target.value)));
            setError(undefined);
          }}
        >
          {gateways.map((g) => (
            <option key={g.pg} value={g.pg}>
              {g.pg}
            </option>
          ))}
        </select>
      </div>
      <RupeesField
        label="Low headroom below (₹)"
        value={draft}
        onChange={setDraft}
        error={error}
        hint="Empty clears it. Compared with payable now less pending payouts."
        placeholder="e.g. 10,00,000"
        className="input acct-money-input"
      />
      <button type="submit" className="button" disabled={save.isPending}>
        Set headroom alert
      </button>
      {save.error && <ErrorNotice error={save.error.error} />}
    </form>
  );
}

export function PayableNow() {
  const headroom = useHeadroom();
  const offline = useConnectivity()?.state === 'offline';
  const [sort, setSort] = useTableSort(PAYABLE_TABLE);
  if (headroom.isError) return <ErrorNotice error={headroom.error.error} onRetry={() => void headroom.refetch()} />;
  const report = headroom.data;
  if (!report || report.gateways.length === 0) return null;
  // Ages are as of the read, which is repeated every minute: render stays pure.
  const now = headroom.dataUpdatedAt;
  const low = report.gateways.filter((g) => g.low);
  return (
    <section className="accounts-payable" aria-labelledby="accounts-payable-title">
      <h2 id="accounts-payable-title">Payable now</h2>
      <p className="accounts-payable-total">
        <span className="money accounts-total-main" data-testid="payable-now">
          {formatMoney(report.total.payable)}
        </span>{' '}
        <span className="muted">
          available − minimum; with overdraft {formatMoney(report.total.payableWithOverdraft)}; pending payouts{' '}
          {formatMoney(report.total.pending)} ({report.total.pendingCount}); after them{' '}
          {formatMoney(report.total.afterPending)}
          {report.otherCurrencies.length > 0 && `; INR only (not summed: ${report.otherCurrencies.join(', ')})`}
          {report.unreported.length > 0 && `; without ${report.unreported.join(', ')}, which gave no figure`}.
        </span>
      </p>
      {report.asOf && (
        <p className={`accounts-payable-asof ${offline ? 'acct-stale' : 'muted'}`} data-testid="payable-as-of">
          {offline ? 'Offline: from the cache, figures of ' : 'Figures of '}
          {formatIstInstant(report.asOf)} ({ageText(report.asOf, now)}, the oldest in the total).
        </p>
      )}
      {low.length > 0 && (
        <p className="notice notice-warning" role="status">
          <strong>Low headroom</strong> on {low.map((g) => g.pg).join(', ')}: after pending payouts, below the alert set
          for {low.length === 1 ? 'it' : 'them'}.
        </p>
      )}
      <DataTable
        id={PAYABLE_TABLE}
        label="Payable now by gateway"
        columns={columns(now)}
        rows={report.gateways}
        rowKey={(g) => g.pg}
        sort={sort}
        onSort={setSort}
        rowClass={(g) => (g.stale ? 'acct-row-stale' : undefined)}
      />
      <ThresholdByGateway gateways={report.gateways} />
    </section>
  );
}
