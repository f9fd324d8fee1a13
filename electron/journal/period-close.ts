/**
 * Period close: a desk closes a range of settlement dates, and the console keeps a snapshot of what the cache held
 * for it — a hash of every current record's canonical form (by natural key), counts and totals per date and
 * gateway, and a digest over all of it — in the period's tables and in a journal entry.
 *
 * A later sync still stores whatever the service says; afterwards `checkAfterSync` compares each closed period it
 * touched with its snapshot, and one that differs turns "changed after close" (journaled), with the exact difference
 * (added, vanished and changed records; totals before and after) available from `diff`, until it is closed again
 * (a new snapshot) or the change is acknowledged (the snapshot stays; that state of the records is accepted, and
 * only a further change flags the period again). Reopening removes the close. Every step is journaled in the same
 * transaction as the change.
 */
import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { closeRange, type ClosedPeriod, type PeriodDiff, type PeriodTotals } from '../../shared/journal';
import { formatCount, formatDateRange, formatIstInstant } from '../../shared/format';
import { epochMsToIst } from '../../shared/time';
import { idRange } from '../cache/settlement-ids';
import { FIELD_COLUMNS } from '../cache/settlement-rows';
import { canonicalJson } from './canonical';
import type { Journal } from './journal';

export class PeriodError extends Error {
  override name = 'PeriodError';
  constructor(
    readonly code: 'PERIOD_OVERLAP' | 'PERIOD_NOT_FOUND' | 'PERIOD_NOT_CHANGED' | 'PERIOD_INVALID',
    message: string,
  ) {
    super(message);
  }
}

/** The fields of a record that the service gave; the cache's own bookkeeping (runs, exceptions) is left out. */
const RECORD_FIELDS = ['date', 'pg', 'pg_transaction_id', 'settlement_date', ...FIELD_COLUMNS] as const;

interface RecordRow {
  date: string;
  pg: string;
  pg_transaction_id: string;
  settlement_date: string;
  amount: number;
  settled_amount: number;
  [field: string]: unknown;
}

interface RecordRef {
  date: string;
  pg: string;
  pgTransactionId: string;
  settlementDate: string;
}

/** The natural key as one string; \u0001 never occurs in these fields. */
const keyOf = (r: RecordRef) => [r.date, r.pg, r.pgTransactionId, r.settlementDate].join('\u0001');
const refOf = (key: string): RecordRef => {
  const [date, pg, pgTransactionId, settlementDate] = key.split('\u0001') as [string, string, string, string];
  return { date, pg, pgTransactionId, settlementDate };
};

interface Snapshot {
  /** Natural key -> SHA-256 of the record's canonical form. */
  hashes: Map<string, string>;
  totals: PeriodTotals[];
  digest: string;
}

interface PeriodRow {
  id: number;
  range_from: string;
  range_to: string;
  closed_at: string;
  close_seq: number;
  digest: string;
  records: number;
  totals: string;
  state: 'closed' | 'changed';
  changed_at: string | null;
  seen_digest: string | null;
  acknowledged_digest: string | null;
  added: number;
  vanished: number;
  modified: number;
}

/** A closed period as a refusal names it: "The period 01/06/2026 to 05/06/2026 is closed (closed on …)". */
export function closedPeriodWords(p: ClosedPeriod): string {
  return `The period ${formatDateRange(p.from, p.to)} is closed (closed on ${formatIstInstant(p.closedAt)})`;
}

function toPeriod(r: PeriodRow): ClosedPeriod {
  return {
    id: r.id,
    from: r.range_from,
    to: r.range_to,
    closedAt: r.closed_at,
    closedAtIst: epochMsToIst(Date.parse(r.closed_at)),
    closeSeq: r.close_seq,
    digest: r.digest,
    records: r.records,
    state: r.state,
    changedAt: r.changed_at,
    added: r.added,
    vanished: r.vanished,
    modified: r.modified,
  };
}

function addExact(a: number, b: number): number {
  const sum = a + b;
  if (!Number.isSafeInteger(sum)) throw new RangeError('A period total passed 2^53 paise; refusing to round it.');
  return sum;
}

/** Every current record of the range, hashed, with counts and totals per date and gateway. */
export function snapshotOf(db: Database, from: string, to: string): Snapshot {
  const { lo, hi } = idRange(from, to);
  const rows = db
    .prepare<[number, number], RecordRow>(
      `SELECT ${RECORD_FIELDS.join(', ')} FROM settlements WHERE id BETWEEN ? AND ? AND vanished_at IS NULL`,
    )
    .iterate(lo, hi);
  const hashes = new Map<string, string>();
  const totals = new Map<string, PeriodTotals>();
  for (const row of rows) {
    const record: Record<string, unknown> = {};
    for (const f of RECORD_FIELDS) record[f] = row[f];
    const key = keyOf({
      date: row.date,
      pg: row.pg,
      pgTransactionId: row.pg_transaction_id,
      settlementDate: row.settlement_date,
    });
    hashes.set(key, createHash('sha256').update(canonicalJson(record)).digest('hex'));
    const group = `${row.date}\u0001${row.pg}`;
    const t = totals.get(group) ?? { date: row.date, pg: row.pg, count: 0, amount: 0, settled: 0 };
    t.count += 1;
    t.amount = addExact(t.amount, row.amount);
    t.settled = addExact(t.settled, row.settled_amount);
    totals.set(group, t);
  }
  const digest = createHash('sha256');
  for (const key of [...hashes.keys()].sort()) digest.update(`${key}\u0002${hashes.get(key)}\n`);
  return {
    hashes,
    totals: [...totals.values()].sort((a, b) =>
      a.date === b.date ? (a.pg < b.pg ? -1 : 1) : a.date < b.date ? -1 : 1,
    ),
    digest: digest.digest('hex'),
  };
}

function compare(before: Map<string, string>, after: Map<string, string>) {
  const added: string[] = [];
  const vanished: string[] = [];
  const modified: string[] = [];
  for (const [key, hash] of after) {
    const was = before.get(key);
    if (was === undefined) added.push(key);
    else if (was !== hash) modified.push(key);
  }
  for (const key of before.keys()) if (!after.has(key)) vanished.push(key);
  return { added: added.sort(), vanished: vanished.sort(), modified: modified.sort() };
}

export function createPeriodCloses(deps: { db: Database; journal: Journal; now: () => Date }) {
  const { db, journal } = deps;
  const byId = db.prepare<[number], PeriodRow>('SELECT * FROM period_closes WHERE id = ?');
  const overlapping = db.prepare<[string, string], PeriodRow>(
    'SELECT * FROM period_closes WHERE range_from <= ? AND range_to >= ? ORDER BY range_from',
  );
  const storedHashes = (id: number): Map<string, string> =>
    new Map(
      db
        .prepare<[number], RecordRef & { hash: string }>(
          `SELECT date, pg, pg_transaction_id AS pgTransactionId, settlement_date AS settlementDate, hash
           FROM period_close_records WHERE close_id = ?`,
        )
        .all(id)
        .map((r) => [keyOf(r), r.hash]),
    );

  function get(id: number): PeriodRow {
    const row = byId.get(id);
    if (!row) throw new PeriodError('PERIOD_NOT_FOUND', `No closed period with id ${id}.`);
    return row;
  }

  function storeSnapshot(id: number, snapshot: Snapshot): void {
    db.prepare('DELETE FROM period_close_records WHERE close_id = ?').run(id);
    const insert = db.prepare(
      `INSERT INTO period_close_records (close_id, date, pg, pg_transaction_id, settlement_date, hash)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    for (const [key, hash] of snapshot.hashes) {
      const r = refOf(key);
      insert.run(id, r.date, r.pg, r.pgTransactionId, r.settlementDate, hash);
    }
  }

  const totalsOf = (snapshot: Snapshot) =>
    snapshot.totals.map((t) => ({ date: t.date, pg: t.pg, count: t.count, amount: t.amount, settled: t.settled }));

  return {
    /**
     * Closes a range of settlement dates, or closes again exactly the range of an existing close (a new snapshot,
     * clearing "changed after close"). A range that overlaps a different closed period is refused. `onDesk`: the
     * desk closed it too and journaled that itself, so this entry is not mirrored to it.
     */
    close(range: { from: string; to: string }, onDesk = false): ClosedPeriod {
      const parsed = closeRange.safeParse(range);
      if (!parsed.success) {
        throw new PeriodError('PERIOD_INVALID', `Check the range: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
      }
      const { from, to } = parsed.data;
      return journal.transact((append) => {
        const existing = overlapping.all(to, from);
        const same = existing.find((p) => p.range_from === from && p.range_to === to);
        const other = existing.find((p) => p !== same);
        if (other) {
          throw new PeriodError(
            'PERIOD_OVERLAP',
            `${formatDateRange(from, to)} overlaps the closed period ${formatDateRange(other.range_from, other.range_to)}; reopen that one first.`,
          );
        }
        const snapshot = snapshotOf(db, from, to);
        const at = deps.now().toISOString();
        let id: number;
        if (same) {
          id = same.id;
        } else {
          id = Number(
            db
              .prepare(
                `INSERT INTO period_closes (range_from, range_to, closed_at, close_seq, digest, records, totals, state)
                 VALUES (?, ?, ?, 0, '', 0, '[]', 'closed')`,
              )
              .run(from, to, at).lastInsertRowid,
          );
        }
        storeSnapshot(id, snapshot);
        const entry = append({
          kind: 'period',
          event: same ? 'period.reclose' : 'period.close',
          outcome: 'done',
          deskJournals: onDesk,
          summary: `${same ? 'Closed again' : 'Closed'} settlements ${formatDateRange(from, to)}: ${formatCount(snapshot.hashes.size)} records.`,
          data: {
            periodId: id,
            from,
            to,
            records: snapshot.hashes.size,
            digest: snapshot.digest,
            totals: totalsOf(snapshot),
            ...(same ? { previousDigest: same.digest } : {}),
          },
        });
        db.prepare(
          `UPDATE period_closes SET closed_at = ?, close_seq = ?, digest = ?, records = ?, totals = ?, state = 'closed',
             changed_at = NULL, seen_digest = NULL, acknowledged_digest = NULL, added = 0, vanished = 0, modified = 0
           WHERE id = ?`,
        ).run(at, entry.seq, snapshot.digest, snapshot.hashes.size, JSON.stringify(snapshot.totals), id);
        return toPeriod(get(id));
      });
    },

    /**
     * Removes a close, with the reason a person gave if any; its snapshot stays in the entry that made it.
     * `onDesk`: the desk reopened it too and journaled that itself.
     */
    reopen(id: number, reason?: string, onDesk = false): void {
      journal.transact((append) => {
        const p = get(id);
        db.prepare('DELETE FROM period_closes WHERE id = ?').run(id);
        append({
          kind: 'period',
          event: 'period.reopen',
          outcome: 'done',
          deskJournals: onDesk,
          refersTo: p.close_seq,
          summary: `Reopened settlements ${formatDateRange(p.range_from, p.range_to)}${reason ? `: ${reason}` : '.'}`,
          data: { periodId: id, from: p.range_from, to: p.range_to, digest: p.digest, state: p.state, reason },
        });
      });
    },

    /** Accepts the records as they are now for a period changed after close; a further change flags it again. */
    acknowledge(id: number): ClosedPeriod {
      return journal.transact((append) => {
        const p = get(id);
        if (p.state !== 'changed') {
          throw new PeriodError(
            'PERIOD_NOT_CHANGED',
            `${formatDateRange(p.range_from, p.range_to)} has not changed since it was closed.`,
          );
        }
        db.prepare(`UPDATE period_closes SET state = 'closed', acknowledged_digest = seen_digest WHERE id = ?`).run(id);
        append({
          kind: 'period',
          event: 'period.acknowledge',
          outcome: 'done',
          refersTo: p.close_seq,
          summary: `Acknowledged the changes to ${formatDateRange(p.range_from, p.range_to)} since it was closed: ${p.added} added, ${p.vanished} vanished, ${p.modified} changed.`,
          data: {
            periodId: id,
            from: p.range_from,
            to: p.range_to,
            closedDigest: p.digest,
            acknowledgedDigest: p.seen_digest,
            added: p.added,
            vanished: p.vanished,
            modified: p.modified,
          },
        });
        return toPeriod(get(id));
      });
    },

    /** Closed periods that overlap the range (all of them without one), oldest first. */
    list(range?: { from: string; to: string }): ClosedPeriod[] {
      const rows = range
        ? overlapping.all(range.to, range.from)
        : db.prepare<[], PeriodRow>('SELECT * FROM period_closes ORDER BY range_from').all();
      return rows.map(toPeriod);
    },

    /**
     * After a sync of `from`..`to`: every closed period it overlaps is compared with its snapshot. One that now
     * differs (and not merely as already acknowledged) turns "changed after close", journaled with its counts, in
     * one transaction. Returns the periods that turned or stayed changed.
     */
    checkAfterSync(range: { from: string; to: string }): ClosedPeriod[] {
      const changed: ClosedPeriod[] = [];
      for (const p of overlapping.all(range.to, range.from)) {
        const now = snapshotOf(db, p.range_from, p.range_to);
        if (now.digest === p.digest || now.digest === p.acknowledged_digest) continue;
        if (now.digest === p.seen_digest && p.state === 'changed') {
          changed.push(toPeriod(p));
          continue;
        }
        const diff = compare(storedHashes(p.id), now.hashes);
        journal.transact((append) => {
          db.prepare(
            `UPDATE period_closes SET state = 'changed', changed_at = ?, seen_digest = ?, added = ?, vanished = ?,
               modified = ? WHERE id = ?`,
          ).run(
            deps.now().toISOString(),
            now.digest,
            diff.added.length,
            diff.vanished.length,
            diff.modified.length,
            p.id,
          );
          append({
            kind: 'period',
            event: 'period.changed',
            outcome: 'done',
            refersTo: p.close_seq,
            summary:
              `Settlements ${formatDateRange(p.range_from, p.range_to)} changed after close: ${diff.added.length} added, ` +
              `${diff.vanished.length} vanished, ${diff.modified.length} changed.`,
            data: {
              periodId: p.id,
              from: p.range_from,
              to: p.range_to,
              closedDigest: p.digest,
              digest: now.digest,
              added: diff.added.length,
              vanished: diff.vanished.length,
              modified: diff.modified.length,
              totals: totalsOf(now),
            },
          });
        });
        changed.push(toPeriod(get(p.id)));
      }
      return changed;
    },

    /** What differs between the period's snapshot and the cache now; each list is cut at `limit` records. */
    diff(id: number, limit = 1000): PeriodDiff {
      const p = get(id);
      const now = snapshotOf(db, p.range_from, p.range_to);
      const d = compare(storedHashes(id), now.hashes);
      const before = JSON.parse(p.totals) as PeriodTotals[];
      const groups = new Map<string, PeriodDiff['totals'][number]>();
      const zero = { count: 0, amount: 0, settled: 0 };
      const pick = (t: PeriodTotals) => ({ count: t.count, amount: t.amount, settled: t.settled });
      for (const t of before)
        groups.set(`${t.date}\u0001${t.pg}`, { date: t.date, pg: t.pg, before: pick(t), after: zero });
      for (const t of now.totals) {
        const key = `${t.date}\u0001${t.pg}`;
        groups.set(key, { date: t.date, pg: t.pg, before: groups.get(key)?.before ?? zero, after: pick(t) });
      }
      return {
        period: toPeriod(p),
        added: d.added.slice(0, limit).map(refOf),
        vanished: d.vanished.slice(0, limit).map(refOf),
        modified: d.modified.slice(0, limit).map(refOf),
        totals: [...groups.values()].sort((a, b) =>
          a.date === b.date ? (a.pg < b.pg ? -1 : 1) : a.date < b.date ? -1 : 1,
        ),
        truncated: Math.max(d.added.length, d.vanished.length, d.modified.length) > limit,
      };
    },
  };
}
export type PeriodCloses = ReturnType<typeof createPeriodCloses>;
