/**
 * The audit journal of the active profile: filter by kind, outcome, dates and text; an entry's detail with its
 * hashes; verification of the whole chain; "Check status" on actions whose outcome is unknown; closed settlement
 * periods (close, difference since close, acknowledge, reopen); export as Excel or CSV.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { JOURNAL_KINDS, JOURNAL_OUTCOMES } from '../../../shared/journal';
import { ExportButtons, ExportStatus } from '../exports/ExportControls';
import { OfflineBanner } from '../ui/OfflineBanner';
import { ErrorNotice, Skeleton, EmptyState } from '../ui/states';
import { formatCount, formatMoney } from '../ui/format';
import { useJournal, type ClosedPeriod, type JournalEntry } from './journal-store';
import './journal.css';
import { DateInput } from '../ui/DateInput';

function Filters() {
  const filter = useJournal((s) => s.filter);
  const setFilter = useJournal((s) => s.setFilter);
  const [text, setText] = useState(filter.text ?? '');
  const pick = (key: 'kind' | 'outcome' | 'from' | 'to', value: string) =>
    setFilter({ ...filter, [key]: value === '' ? undefined : value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFilter({ ...filter, text: text.trim() === '' ? undefined : text.trim() });
  };
  return (
    <form className="journal-toolbar" role="search" aria-label="Filter the journal" onSubmit={submit}>
      <label>
        Kind{' '}
        <select className="input" value={filter.kind ?? ''} onChange={(e) => pick('kind', e.target.value)}>
          <option value="">Any</option>
          {JOURNAL_KINDS.map((k) => (
            <option key={k}>{k}</option>
          ))}
        </select>
      </label>
      <label>
        Outcome{' '}
        <select className="input" value={filter.outcome ?? ''} onChange={(e) => pick('outcome', e.target.value)}>
          <option value="">Any</option>
          {JOURNAL_OUTCOMES.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      </label>
      <label>
        From (IST) <DateInput value={filter.from ?? ''} onChange={(date) => pick('from', date ?? '')} />
      </label>
      <label>
        To (IST) <DateInput value={filter.to ?? ''} onChange={(date) => pick('to', date ?? '')} />
      </label>
      <label>
        Text <input className="input" type="search" value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <button type="submit" className="button">
        Apply
      </button>
    </form>
  );
}

function Verification() {
  const verification = useJournal((s) => s.verification);
  const verify = useJournal((s) => s.verify);
  return (
    <div className="journal-toolbar">
      <button
        type="button"
        className="button"
        onClick={() => void verify()}
        disabled={verification?.status === 'loading'}
      >
        Verify the journal
      </button>
      <p role="status" className="job-line">
        {verification?.status === 'loading' && 'Recomputing every hash…'}
        {verification?.status === 'ready' &&
          (verification.value.ok
            ? `The journal holds ${formatCount(verification.value.entries)} ${verification.value.entries === 1 ? 'entry' : 'entries'}, every hash and link as written.`
            : `The journal does not hold at entry ${verification.value.problem!.seq}: ${verification.value.problem!.message}`)}
      </p>
      {verification?.status === 'failed' && <ErrorNotice error={verification.error} />}
    </div>
  );
}

function Detail({ entry }: { entry: JournalEntry }) {
  return (
    <section aria-label={`Entry ${entry.seq}`} className="panel journal-detail">
      <h3>
        Entry {entry.seq}: {entry.event}
      </h3>
      <dl className="facts">
        <dt>Time</dt>
        <dd>{entry.atIst} IST</dd>
        <dt>Kind and outcome</dt>
        <dd>
          {entry.kind}, {entry.outcome}
        </dd>
        {entry.refersTo !== null && (
          <>
            <dt>Refers to</dt>
            <dd>entry {entry.refersTo}</dd>
          </>
        )}
        {entry.requestId !== null && (
          <>
            <dt>Request id</dt>
            <dd className="mono">{entry.requestId}</dd>
          </>
        )}
        <dt>Summary</dt>
        <dd>{entry.summary}</dd>
        <dt>App version, OS user</dt>
        <dd>
          {entry.appVersion}, {entry.osUser}
        </dd>
        <dt>Previous hash</dt>
        <dd className="mono">{entry.prevHash}</dd>
        <dt>Hash</dt>
        <dd className="mono">{entry.hash}</dd>
      </dl>
      <pre className="mono" aria-label="Data">
        {JSON.stringify(entry.data, null, 2)}
      </pre>
    </section>
  );
}

function Entries() {
  const entries = useJournal((s) => s.entries);
  const selected = useJournal((s) => s.selected);
  const select = useJournal((s) => s.select);
  if (entries.status === 'loading') return <Skeleton label="Loading the journal" />;
  if (entries.status === 'failed') return <ErrorNotice error={entries.error} />;
  const rows = entries.value.entries;
  if (rows.length === 0) return <EmptyState title="No entries match" />;
  const shown = rows.find((e) => e.seq === selected);
  return (
    <>
      <table className="journal-table" aria-label="Journal entries">
        <thead>
          <tr>
            <th scope="col">Seq</th>
            <th scope="col">Time (IST)</th>
            <th scope="col">Kind</th>
            <th scope="col">Event</th>
            <th scope="col">Outcome</th>
            <th scope="col">Summary</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => (
            <tr key={e.seq} aria-selected={e.seq === selected}>
              <td className="journal-num">
                <button type="button" className="journal-seq" onClick={() => select(e.seq === selected ? null : e.seq)}>
                  {e.seq}
                </button>
              </td>
              <td>{e.atIst}</td>
              <td>{e.kind}</td>
              <td>{e.event}</td>
              <td>{e.outcome}</td>
              <td>{e.summary}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown && <Detail entry={shown} />}
    </>
  );
}

/** What to check for actions the journal cannot settle itself: the screen where the desk looks. */
const CHECK_ELSEWHERE: Readonly<Record<string, string>> = {
  'order.process': 'Fetch the order and look at its payments before processing it again.',
  'webhook.update': 'Open Webhooks: the list shows whether the change took effect.',
};

function CheckStatus({ attempt }: { attempt: JournalEntry }) {
  const checkStatus = useJournal((s) => s.checkStatus);
  const checkPlanCreate = useJournal((s) => s.checkPlanCreate);
  const [id, setId] = useState('');
  const head = (
    <span>
      Entry {attempt.seq}, {attempt.atIst} IST: {attempt.summary}
    </span>
  );
  if (attempt.event === 'plan.create') {
    return (
      <div className="journal-toolbar" aria-label={`Check status of entry ${attempt.seq}`}>
        {head}
        <button type="button" className="button" onClick={() => void checkPlanCreate(attempt.seq)}>
          Check status
        </button>
      </div>
    );
  }
  const elsewhere = CHECK_ELSEWHERE[attempt.event];
  if (elsewhere) {
    return (
      <div className="journal-toolbar" aria-label={`Check status of entry ${attempt.seq}`}>
        {head}
        <span className="muted">{elsewhere}</span>
      </div>
    );
  }
  return (
    <form
      className="journal-toolbar"
      aria-label={`Check status of entry ${attempt.seq}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (id.trim()) void checkStatus(attempt.seq, id.trim());
      }}
    >
      {head}
      <label>
        Beneficiary id at the service <input className="input" value={id} onChange={(e) => setId(e.target.value)} />
      </label>
      <button type="submit" className="button" disabled={!id.trim()}>
        Check status
      </button>
    </form>
  );
}

function Unresolved() {
  const unresolved = useJournal((s) => s.unresolved);
  if (unresolved.status !== 'ready' || unresolved.value.length === 0) return null;
  return (
    <section aria-label="Outcome unknown" className="notice notice-warning journal-unresolved">
      <h3>Outcome unknown — check status</h3>
      <p className="muted">
        The service may or may not have done these. For a beneficiary, look it up at the service and enter its id; the
        console fetches it and records whether it is the one that was asked for. A plan is looked up by its reference.
      </p>
      {unresolved.value.map((u) => (
        <CheckStatus key={u.attempt.seq} attempt={u.attempt} />
      ))}
    </section>
  );
}

function PeriodRow({ period }: { period: ClosedPeriod }) {
  const acknowledge = useJournal((s) => s.acknowledge);
  const reopen = useJournal((s) => s.reopen);
  const showDiff = useJournal((s) => s.showDiff);
  return (
    <tr>
      <td>
        {period.from} to {period.to}
      </td>
      <td>{period.closedAtIst} IST</td>
      <td className="journal-num">{formatCount(period.records)}</td>
      <td>
        {period.state === 'changed'
          ? `Changed after close: ${period.added} added, ${period.vanished} vanished, ${period.modified} changed`
          : 'Closed'}
      </td>
      <td>
        <button type="button" className="button" onClick={() => void showDiff(period.id)}>
          Difference
        </button>
        {period.state === 'changed' && (
          <button type="button" className="button" onClick={() => void acknowledge(period.id)}>
            Acknowledge
          </button>
        )}
        <button type="button" className="button" onClick={() => void reopen(period.id)}>
          Reopen
        </button>
      </td>
    </tr>
  );
}

function Diff() {
  const diff = useJournal((s) => s.diff);
  const showDiff = useJournal((s) => s.showDiff);
  if (diff === null) return null;
  if (diff.status === 'loading') return <Skeleton label="Comparing with the close" />;
  if (diff.status === 'failed') return <ErrorNotice error={diff.error} />;
  const d = diff.value;
  const list = (label: string, refs: typeof d.added) =>
    refs.length > 0 && (
      <>
        <h4>{label}</h4>
        <ul>
          {refs.map((r) => (
            <li key={`${r.date} ${r.pg} ${r.pgTransactionId} ${r.settlementDate}`} className="mono">
              {r.date} {r.pg} {r.pgTransactionId} {r.settlementDate}
            </li>
          ))}
        </ul>
      </>
    );
  return (
    <section aria-label="Difference since close" className="panel journal-detail">
      <h3>
        {d.period.from} to {d.period.to} since its close
      </h3>
      {list('Added', d.added)}
      {list('Vanished', d.vanished)}
      {list('Changed', d.modified)}
      {d.truncated && <p className="muted">Only the first records of each list are shown.</p>}
      <table className="journal-table" aria-label="Totals before and after">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Gateway</th>
            <th scope="col">Records at close</th>
            <th scope="col">Records now</th>
            <th scope="col">Settled at close</th>
            <th scope="col">Settled now</th>
          </tr>
        </thead>
        <tbody>
          {d.totals.map((t) => (
            <tr key={`${t.date} ${t.pg}`}>
              <td>{t.date}</td>
              <td>{t.pg}</td>
              <td className="journal-num">{formatCount(t.before.count)}</td>
              <td className="journal-num">{formatCount(t.after.count)}</td>
              <td className="journal-num">{formatMoney(t.before.settled)}</td>
              <td className="journal-num">{formatMoney(t.after.settled)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" className="button" onClick={() => void showDiff(null)}>
        Close the difference
      </button>
    </section>
  );
}

function Periods() {
  const periods = useJournal((s) => s.periods);
  const closePeriod = useJournal((s) => s.closePeriod);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  return (
    <section aria-labelledby="periods-title">
      <h3 id="periods-title">Closed settlement periods</h3>
      <form
        className="journal-toolbar"
        aria-label="Close a period"
        onSubmit={(e) => {
          e.preventDefault();
          if (from && to) void closePeriod(from, to);
        }}
      >
        <label>
          From <DateInput value={from} onChange={(date) => setFrom(date ?? '')} />
        </label>
        <label>
          To <DateInput value={to} onChange={(date) => setTo(date ?? '')} />
        </label>
        <button type="submit" className="button" disabled={!from || !to}>
          Close period
        </button>
      </form>
      {periods.status === 'failed' && <ErrorNotice error={periods.error} />}
      {periods.status === 'ready' && periods.value.length > 0 && (
        <table className="journal-table" aria-label="Closed periods">
          <thead>
            <tr>
              <th scope="col">Dates</th>
              <th scope="col">Closed at</th>
              <th scope="col">Records</th>
              <th scope="col">State</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {periods.value.map((p) => (
              <PeriodRow key={p.id} period={p} />
            ))}
          </tbody>
        </table>
      )}
      <Diff />
    </section>
  );
}

export function JournalScreen() {
  const load = useJournal((s) => s.load);
  const outcome = useJournal((s) => s.outcome);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <div className="screen journal-screen">
      <OfflineBanner />
      <header className="screen-head">
        <h1 className="screen-title">Journal</h1>
        <div className="screen-actions">
          <ExportButtons kind="journal" request={(format) => ({ kind: 'journal', format })} />
        </div>
      </header>
      <ExportStatus kind="journal" />
      <Verification />
      <p role="status" className="job-line">
        {outcome?.status === 'ready' && outcome.value}
      </p>
      {outcome?.status === 'failed' && <ErrorNotice error={outcome.error} />}
      <Unresolved />
      <Filters />
      <Entries />
      <Periods />
    </div>
  );
}
