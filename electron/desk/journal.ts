/**
 * The desk's journal as the console reads it: entries newest first, and the whole chain checked here, not by the
 * server — each entry's hash recomputed from its fields as `journal_write` built it, every link and sequence number
 * followed, and the head this console saw last (kept outside the database) still in the chain. So a superuser who
 * edits, deletes, reorders or inserts entries is caught, and so is one who rewrites the chain from some entry on.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { GENESIS_HASH } from '../../shared/journal';
import type { JournalHead } from '../journal/journal';

export interface DeskJournalInput {
  kind: string;
  event: string;
  outcome: string;
  summary: string;
  data?: Record<string, unknown>;
  refersTo?: number | null;
}

/** A console's own entry as the desk mirrors it: its local sequence number and hash, and the desk entry it refers to. */
export interface MirroredEntry extends Omit<DeskJournalInput, 'data' | 'refersTo'> {
  seq: number;
  hash: string;
  data: Record<string, unknown>;
  refersTo: number | null;
}

/** An entry as read: what was appended, with what the server stamped (sequence, time, person, console, hash). */
export interface DeskJournalEntry extends Required<DeskJournalInput> {
  seq: number;
  at: string;
  person: string;
  console: string;
  refersTo: number | null;
  hash: string;
}

interface Row {
  seq: number;
  at: string;
  person: string;
  console: string;
  kind: string;
  event: string;
  outcome: string;
  summary: string;
  data: string;
  refers_to: number | null;
  prev_hash: string;
  hash: string;
}

const field = (v: string | null) => {
  const text = v ?? '';
  return `${Buffer.byteLength(text)}:${text};`;
};

/** The hash `journal_write` stores for a row (migrations/002-journal.ts). */
export function deskEntryHash(row: Omit<Row, 'hash'>): string {
  const body = [
    String(row.seq),
    row.at,
    row.person,
    row.console,
    row.kind,
    row.event,
    row.outcome,
    row.summary,
    row.data,
    row.refers_to === null ? null : String(row.refers_to),
  ]
    .map(field)
    .join('');
  return createHash('sha256')
    .update(row.prev_hash + body, 'utf8')
    .digest('hex');
}

export interface DeskVerifyResult {
  ok: boolean;
  entries: number;
  head: JournalHead;
  /** One sentence per break, oldest first. */
  problems: string[];
}

const COLUMNS = 'seq, at, person, console, kind, event, outcome, summary, data, refers_to, prev_hash, hash';

const toEntry = (r: Row): DeskJournalEntry => ({
  seq: r.seq,
  at: r.at,
  person: r.person,
  console: r.console,
  kind: r.kind,
  event: r.event,
  outcome: r.outcome,
  summary: r.summary,
  data: JSON.parse(r.data) as Record<string, unknown>,
  refersTo: r.refers_to,
  hash: r.hash,
});

export function createDeskJournal(pool: pg.Pool, consoleName: string) {
  return {
    async append(input: DeskJournalInput): Promise<number> {
      const { rows } = await pool.query<{ seq: number }>(
        'SELECT desk.journal_append($1, $2, $3, $4, $5, $6, $7) AS seq',
        [
          consoleName,
          input.kind,
          input.event,
          input.outcome,
          input.summary,
          JSON.stringify(input.data ?? {}),
          input.refersTo ?? null,
        ],
      );
      return rows[0]!.seq;
    },

    /**
     * One of this console's own entries, mirrored (migrations/008-journal-mirror.ts): the desk entry's sequence
     * number, the same one however often the entry is sent.
     */
    async mirror(local: MirroredEntry): Promise<number> {
      const { rows } = await pool.query<{ seq: number }>(
        'SELECT desk.journal_mirror($1, $2, $3, $4, $5, $6, $7, $8, $9) AS seq',
        [
          consoleName,
          local.seq,
          local.hash,
          local.kind,
          local.event,
          local.outcome,
          local.summary,
          JSON.stringify(local.data),
          local.refersTo,
        ],
      );
      return rows[0]!.seq;
    },

    async list(filter: { kind?: string; limit?: number; before?: number } = {}): Promise<DeskJournalEntry[]> {
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM desk.journal
          WHERE ($1::text IS NULL OR kind = $1) AND ($2::bigint IS NULL OR seq < $2)
          ORDER BY seq DESC LIMIT $3`,
        [filter.kind ?? null, filter.before ?? null, Math.min(filter.limit ?? 100, 1000)],
      );
      return rows.map(toEntry);
    },

    async get(seq: number): Promise<DeskJournalEntry | null> {
      const { rows } = await pool.query<Row>(`SELECT ${COLUMNS} FROM desk.journal WHERE seq = $1`, [seq]);
      return rows[0] ? toEntry(rows[0]) : null;
    },

    /** The whole chain, read in order on one snapshot; `known` is the head this console saw last. */
    async verify(known: JournalHead | null): Promise<DeskVerifyResult> {
      const problems: string[] = [];
      let expectedSeq = 1;
      let prev = GENESIS_HASH;
      let entries = 0;
      let knownSeen = known === null || known.seq === 0;
      // One statement: one snapshot of the whole chain.
      const { rows } = await pool.query<Row>(`SELECT ${COLUMNS} FROM desk.journal ORDER BY seq`);
      for (const row of rows) {
        entries++;
        if (row.seq !== expectedSeq) problems.push(`entry ${expectedSeq} is missing (the next one is ${row.seq})`);
        if (row.prev_hash !== prev) problems.push(`entry ${row.seq} does not follow the entry before it`);
        if (deskEntryHash(row) !== row.hash) problems.push(`entry ${row.seq} was changed after it was written`);
        if (known && row.seq === known.seq) {
          knownSeen = true;
          if (row.hash !== known.hash)
            problems.push(`entry ${row.seq} is not the one this console saw: the chain was rewritten from there`);
        }
        expectedSeq = row.seq + 1;
        prev = row.hash;
      }
      if (!knownSeen)
        problems.push(`entries up to ${known!.seq}, which this console saw, are gone: the journal was cut short`);
      return { ok: problems.length === 0, entries, head: { seq: expectedSeq - 1, hash: prev }, problems };
    },
  };
}
export type DeskJournal = ReturnType<typeof createDeskJournal>;
