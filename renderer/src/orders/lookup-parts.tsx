/**
 * What the Orders and Subscriptions screens share: each looks one record up by id, shows the cache's copy with the
 * time it was read (so online and offline show the same thing), acts on it, and lists the recent lookups.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import type { Loadable } from '../loadable';
import type { ActionOutcome } from '../query/journaled-action';
import { resultOf } from '../query/ipc-query';
import type { DataColumn } from '../ui/DataTable';
import { formatIstInstant } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';
import { IdField, useIdField } from '../ui/IdField';
import { useOfflineReason } from '../ui/offline';
import { EmptyState, ErrorNotice, Skeleton } from '../ui/states';

/** The id box and its button. Offline the button shows the cache's copy instead of asking the service. */
export function LookupForm({
  ariaLabel,
  noun,
  label,
  placeholder,
  hint,
  offlineHint,
  busy,
  onLookUp,
  children,
}: {
  ariaLabel: string;
  /** The id with its article, as a sentence says it: "an order id". */
  noun: string;
  label: string;
  placeholder: string;
  hint: string;
  offlineHint: string;
  busy: boolean;
  onLookUp(id: string): void;
  /** Choices that go with the id, after the button. */
  children?: ReactNode;
}) {
  const offline = useOfflineReason();
  const field = useIdField(noun);
  function submit(event: FormEvent) {
    event.preventDefault();
    const id = field.take();
    if (id !== undefined) onLookUp(id);
  }
  return (
    <form className="order-form" onSubmit={submit} noValidate aria-label={ariaLabel}>
      <IdField field={field} label={label} placeholder={placeholder} hint={offline ? offlineHint : hint} />
      <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy}>
        {offline ? 'Show cached' : busy ? 'Looking up…' : 'Look up'}
      </button>
      {children}
    </form>
  );
}

/** Reads the record on screen from the service again; only while it answers. */
export function RefreshButton({ busy, onRefresh }: { busy: boolean; onRefresh(): void }) {
  const offline = useOfflineReason();
  return (
    <button
      type="button"
      className="button"
      disabled={offline !== null || busy}
      title={offline ?? undefined}
      onClick={onRefresh}
    >
      Refresh
    </button>
  );
}

/**
 * Until a record is on screen: the lookup that failed (shown with the record too, since the copy on screen is then
 * older than asked for), the rows while it loads, or that this profile has never read it.
 */
export function LookupStates({
  asked,
  shown,
  fetching,
  cached,
  failed,
  onRetry,
  loading,
  notInCache,
}: {
  /** An id was asked for. */
  asked: boolean;
  /** The cache's copy is on screen. */
  shown: boolean;
  fetching: boolean;
  cached: { isLoading: boolean; isSuccess: boolean };
  failed: Loadable<unknown> | null;
  onRetry(): void;
  loading: { rows: number; label: string };
  notInCache: ReactNode;
}) {
  const waiting = asked && !shown;
  return (
    <>
      {failed?.status === 'failed' && <ErrorNotice error={failed.error} onRetry={onRetry} />}
      {waiting && (fetching || cached.isLoading) && <Skeleton rows={loading.rows} label={loading.label} />}
      {waiting && !fetching && cached.isSuccess && !failed && (
        <EmptyState title="Not in the cache">{notInCache}</EmptyState>
      )}
    </>
  );
}

/** The actions on the record on screen, with what the last one came to below them. */
export function ActionsPanel({
  id,
  outcome,
  children,
}: {
  /** The heading's id, unique on the screen. */
  id: string;
  outcome: ActionOutcome | null;
  children: ReactNode;
}) {
  return (
    <section className="order-panel" aria-labelledby={id}>
      <header className="order-panel-head">
        <h2 id={id}>Actions</h2>
      </header>
      {children}
      {outcome && (
        <p className={outcome.ok ? 'order-outcome ok' : 'order-outcome error'} role="status">
          {outcome.text}
        </p>
      )}
    </section>
  );
}

/** The record's details beside its actions and their journal. */
export function RecordLayout({ detail, children }: { detail: ReactNode; children: ReactNode }) {
  return (
    <div className="order-layout">
      <div className="order-main">{detail}</div>
      <div className="order-side">{children}</div>
    </div>
  );
}

/**
 * The action journal's note and status checks: a check of an attempt whose outcome is unknown leaves its summary,
 * or why it did not answer, above the journal until the next lookup clears it.
 */
export function useStatusCheck(check: {
  isPending: boolean;
  variables: { attemptSeq: number } | undefined;
  mutateAsync(input: { attemptSeq: number }): Promise<{ check: { summary: string } }>;
}) {
  const [note, setNote] = useState<string | null>(null);
  async function checkStatus(attemptSeq: number) {
    const r = await resultOf(check.mutateAsync({ attemptSeq }));
    setNote(r.ok ? r.value.check.summary : `The check did not answer: ${r.error.message}`);
  }
  const checking = check.isPending ? (check.variables?.attemptSeq ?? null) : null;
  /** Spread on the ActionJournalPanel. */
  const panel = { note, checking, onCheck: (seq: number) => void checkStatus(seq) };
  return { setNote, panel };
}

/** What both screens' recent lookups show after their ids: status, amount and when it was read. */
export function recentColumns<T extends { amount: number; currency: string; fetchedAt: string }>(
  statusOf: (row: T) => string,
): DataColumn<T>[] {
  return [
    { id: 'status', label: 'Status', optional: true, cell: statusOf, sortValue: statusOf },
    {
      id: 'amount',
      label: 'Amount',
      numeric: true,
      optional: true,
      cell: (r) => formatMoney(r.amount, r.currency),
      sortValue: (r) => r.amount,
    },
    {
      id: 'read',
      label: 'Read',
      optional: true,
      cell: (r) => <span className="muted">{formatIstInstant(r.fetchedAt)}</span>,
      sortValue: (r) => r.fetchedAt,
    },
  ];
}
