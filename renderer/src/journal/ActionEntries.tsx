import { useId, type ReactNode } from 'react';
import type { JournalEntry } from '../../../shared/journal';
import { formatIstInstant } from '../../../shared/format';

const OUTCOME_WORDS: Partial<Record<JournalEntry['outcome'], string>> = {
  attempted: 'Sent',
  succeeded: 'Done',
  refused: 'Refused',
  unknown: 'Outcome unknown',
};

/**
 * The journal's entries about one order or subscription, newest first, read from the cache (so offline too). An
 * attempt whose newest answer is "unknown", or that has none, offers "Check status" while the service answers.
 */
export function ActionEntries({
  entries,
  offline,
  checking,
  onCheck,
  settle,
}: {
  entries: readonly JournalEntry[];
  /** Why "Check status" is disabled, or null. */
  offline: string | null;
  /** The attempt being checked now. */
  checking: number | null;
  onCheck(attemptSeq: number): void;
  /** More ways to settle an unsettled attempt (what the desk learnt elsewhere), beside Check status. */
  settle?(attempt: JournalEntry): ReactNode;
}) {
  const latest = new Map<number, JournalEntry>();
  for (const e of entries) {
    if (e.refersTo !== null && (latest.get(e.refersTo)?.seq ?? 0) < e.seq) latest.set(e.refersTo, e);
  }
  const unsettled = (e: JournalEntry) =>
    e.outcome === 'attempted' && (latest.get(e.seq) === undefined || latest.get(e.seq)!.outcome === 'unknown');
  if (entries.length === 0) return <p className="muted">No actions on it from this console yet.</p>;
  return (
    <ol className="action-entries">
      {entries.map((e) => (
        <li key={e.seq} className={`action-entry action-${e.outcome}`}>
          <span className="action-outcome">{OUTCOME_WORDS[e.outcome] ?? e.outcome}</span>
          <span className="action-summary">{e.summary}</span>
          <span className="muted action-when">
            #{e.seq} · {formatIstInstant(e.at)}
          </span>
          {unsettled(e) && (
            <button
              type="button"
              className="button"
              disabled={offline !== null || checking !== null}
              title={offline ?? undefined}
              onClick={() => onCheck(e.seq)}
            >
              {checking === e.seq ? 'Checking…' : 'Check status'}
            </button>
          )}
          {unsettled(e) && settle?.(e)}
        </li>
      ))}
    </ol>
  );
}

/** The "Journal" panel of an order or a subscription: what the last status check found, then its entries. */
export function ActionJournalPanel({
  note,
  entries,
  ...rest
}: Omit<Parameters<typeof ActionEntries>[0], 'entries'> & {
  /** What the last "Check status" found, or null. */
  note: string | null;
  /** Undefined until the cache has answered. */
  entries: readonly JournalEntry[] | undefined;
}) {
  const titleId = useId();
  return (
    <section className="order-panel" aria-labelledby={titleId}>
      <header className="order-panel-head">
        <h2 id={titleId}>Journal</h2>
      </header>
      {note && (
        <p className="order-outcome" role="status">
          {note}
        </p>
      )}
      {entries && <ActionEntries entries={entries} {...rest} />}
    </section>
  );
}
