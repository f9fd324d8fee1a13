/**
 * One profile's audit journal, in its cache file (table `journal`, migration 7): append, read, verify.
 *
 * Appending reads the last entry and writes the next one in one IMMEDIATE transaction, so two processes (the app
 * and the CLI) writing the same cache take turns and never fork the chain. `transact(work)` runs a local change
 * and its entries in the same transaction, so neither is ever stored without the other. After the commit the
 * head (last sequence number and hash) is written to the settings, where removing the newest entries cannot
 * reach it; a head is only ever moved forward.
 */
import type { Database } from 'better-sqlite3';
import {
  GENESIS_HASH,
  journalFilter,
  type JournalEntry,
  type JournalFilter,
  type JournalKind,
  type JournalOutcome,
  type JsonValue,
  type VerifyResult,
} from '../../shared/journal';
import { epochMsToIst, istToIsoUtc, addDays } from '../../shared/time';
import { canonicalEntry, canonicalJson, chainHash } from './canonical';
import { verifyJournal, type VerifyOptions } from './verify';
import type { LastVerification } from '../../shared/today';

export interface JournalHead {
  seq: number;
  hash: string;
}

/** Where each profile's head is kept outside its cache: the settings (profiles/profile-store.ts). */
export interface JournalHeads {
  journalHead(profileId: string): JournalHead | null;
  setJournalHead(profileId: string, head: JournalHead): void;
}

export interface JournalInput {
  kind: JournalKind;
  event: string;
  outcome: JournalOutcome;
  summary: string;
  data?: Record<string, JsonValue | undefined>;
  refersTo?: number | null;
  requestId?: string | null;
  /**
   * The desk journals this action itself, in the transaction that made it (a period closed or reopened on the
   * desk): kept here as the console's record, not mirrored to the desk a second time.
   */
  deskJournals?: boolean;
}

export interface JournalOptions {
  db: Database;
  profileId: string;
  heads: JournalHeads;
  appVersion: string;
  osUser: string;
  now: () => Date;
  /** better-sqlite3's binding for the verification's worker threads (native-binding.ts); unset under Node. */
  nativeBinding?: string;
  /** Whether the profile is on a desk now: its new entries wait in the outbox for the desk's journal. */
  mirrored?: () => boolean;
  /** Told after a commit that put entries in the outbox (desk-mirror.ts sends them). */
  onQueued?: () => void;
}

/** A local entry waiting for the desk, with the desk entry of the one it refers to, when that one went before. */
export interface WaitingEntry {
  entry: JournalEntry;
  deskRefersTo: number | null;
}

interface Row {
  seq: number;
  at: string;
  kind: JournalKind;
  event: string;
  outcome: JournalOutcome;
  refers_to: number | null;
  request_id: string | null;
  summary: string;
  data: string;
  app_version: string;
  os_user: string;
  prev_hash: string;
  hash: string;
}

const COLUMNS =
  'seq, at, kind, event, outcome, refers_to, request_id, summary, data, app_version, os_user, prev_hash, hash';

function toEntry(row: Row): JournalEntry {
  return {
    seq: row.seq,
    at: row.at,
    atIst: epochMsToIst(Date.parse(row.at)),
    kind: row.kind,
    event: row.event,
    outcome: row.outcome,
    refersTo: row.refers_to,
    requestId: row.request_id,
    summary: row.summary,
    data: JSON.parse(row.data) as Record<string, unknown>,
    appVersion: row.app_version,
    osUser: row.os_user,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/** Every entry, oldest first, one at a time: the journal export reads them on its own read-only connection. */
export function* journalEntries(db: Database): Generator<JournalEntry> {
  for (const row of db.prepare<[], Row>(`SELECT ${COLUMNS} FROM journal ORDER BY seq`).iterate()) yield toEntry(row);
}

/** The cache's list of entries on their way to the desk's journal (migration 18), read and marked by desk-mirror.ts. */
function createOutbox(db: Database) {
  const waitingRows = db.prepare<[number], Row & { desk_refers_to: number | null }>(
    `SELECT ${COLUMNS.split(', ')
      .map((c) => `j.${c}`)
      .join(', ')}, r.desk_seq AS desk_refers_to
       FROM journal_desk_outbox o JOIN journal j ON j.seq = o.seq
       LEFT JOIN journal_desk_outbox r ON r.seq = j.refers_to
      WHERE o.desk_seq IS NULL ORDER BY o.seq LIMIT ?`,
  );
  const waitingCount = db
    .prepare<[], number>('SELECT count(*) FROM journal_desk_outbox WHERE desk_seq IS NULL')
    .pluck();
  const markPushed = db.prepare<[number, number]>('UPDATE journal_desk_outbox SET desk_seq = ? WHERE seq = ?');
  return {
    waiting: (): number => waitingCount.get()!,
    next: (limit: number): WaitingEntry[] =>
      waitingRows.all(limit).map((r) => ({ entry: toEntry(r), deskRefersTo: r.desk_refers_to })),
    /** The desk took the entry as its entry `deskSeq`. */
    pushed: (seq: number, deskSeq: number): void => void markPushed.run(deskSeq, seq),
  };
}

export function createJournal(options: JournalOptions) {
  const { db, profileId, heads } = options;
  const last = db.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1');
  const insert = db.prepare(`INSERT INTO journal (${COLUMNS}) VALUES (${COLUMNS.replace(/\w+/g, '?')})`);
  const bySeq = db.prepare<[number], Row>(`SELECT ${COLUMNS} FROM journal WHERE seq = ?`);
  const queue = db.prepare<[number]>('INSERT INTO journal_desk_outbox (seq) VALUES (?)');
  const verifications = {
    record: db.prepare<[string, number, number, string | null]>(
      `INSERT INTO journal_verifications (id, at, ok, entries, problem) VALUES (1, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET at = excluded.at, ok = excluded.ok, entries = excluded.entries,
         problem = excluded.problem`,
    ),
    last: db.prepare<[], { at: string; ok: number; entries: number; problem: string | null }>(
      'SELECT at, ok, entries, problem FROM journal_verifications WHERE id = 1',
    ),
  };
  // Whether the current write put an entry in the outbox, so its commit tells the mirror.
  let queued = false;

  function append(input: JournalInput): JournalEntry {
    const tail = last.get();
    const prevHash = tail?.hash ?? GENESIS_HASH;
    const fields = {
      seq: (tail?.seq ?? 0) + 1,
      at: options.now().toISOString(),
      kind: input.kind,
      event: input.event,
      outcome: input.outcome,
      refersTo: input.refersTo ?? null,
      requestId: input.requestId ?? null,
      summary: input.summary,
      data: canonicalJson(input.data ?? {}),
      appVersion: options.appVersion,
      osUser: options.osUser,
    };
    const hash = chainHash(prevHash, canonicalEntry(fields));
    insert.run(
      fields.seq,
      fields.at,
      fields.kind,
      fields.event,
      fields.outcome,
      fields.refersTo,
      fields.requestId,
      fields.summary,
      fields.data,
      fields.appVersion,
      fields.osUser,
      prevHash,
      hash,
    );
    if (!input.deskJournals && options.mirrored?.()) {
      queue.run(fields.seq);
      queued = true;
    }
    return toEntry(bySeq.get(fields.seq)!);
  }

  /** After a commit: the mirror is told of what waits for the desk (not inside someone else's transaction). */
  function tellMirror(): void {
    if (!queued || db.inTransaction) return;
    queued = false;
    options.onQueued?.();
  }

  function publishHead(entry: JournalEntry): void {
    // Inside someone else's transaction the entry is not committed yet; the caller's `record` publishes it.
    if (db.inTransaction) return;
    const known = heads.journalHead(profileId);
    if (known === null || known.seq < entry.seq) heads.setJournalHead(profileId, { seq: entry.seq, hash: entry.hash });
  }

  return {
    /** Appends one entry on its own. */
    append(input: JournalInput): JournalEntry {
      const entry = db.transaction(() => append(input)).immediate();
      publishHead(entry);
      tellMirror();
      return entry;
    },

    /**
     * Local changes and their entries in one transaction: `work` makes the change and appends what it did, so an
     * entry never describes a change that was rolled back, and no change is stored without its entry.
     */
    transact<T>(work: (append: (input: JournalInput) => JournalEntry) => T): T {
      let newest: JournalEntry | null = null;
      const result = db
        .transaction(() =>
          work((input) => {
            newest = append(input);
            return newest;
          }),
        )
        .immediate();
      if (newest) publishHead(newest);
      tellMirror();
      return result;
    },

    /**
     * Starts a chain over in a cache that replaced an unreadable one (moved aside, see cache/recovery.ts): the
     * settings' head is set to this new chain's first entry, which names the file the old chain is in.
     */
    restartAfterRecovery(input: JournalInput): JournalEntry {
      const entry = db.transaction(() => append(input)).immediate();
      heads.setJournalHead(profileId, { seq: entry.seq, hash: entry.hash });
      tellMirror();
      return entry;
    },

    /** The entries waiting for the desk's journal (desk-mirror.ts), oldest first. */
    outbox: createOutbox(db),

    get(seq: number): JournalEntry | null {
      const row = bySeq.get(seq);
      return row ? toEntry(row) : null;
    },

    /** Newest first, filtered; `before` pages on. */
    list(filter: JournalFilter = {}): JournalEntry[] {
      const f = journalFilter.parse(filter);
      const where: string[] = [];
      const params: (string | number)[] = [];
      const when = (clause: string, value: string | number | undefined) => {
        if (value === undefined || value === '') return;
        where.push(clause);
        params.push(value);
      };
      when('kind = ?', f.kind);
      when('outcome = ?', f.outcome);
      // Entries are stored in UTC; the filter's dates are IST days.
      when('at >= ?', f.from && istToIsoUtc(`${f.from} 00:00:00`));
      when('at < ?', f.to && istToIsoUtc(`${addDays(f.to, 1)} 00:00:00`));
      when('seq < ?', f.before);
      when(
        "instr(lower(event || ' ' || summary || ' ' || data || ' ' || coalesce(request_id, '')), ?) > 0",
        f.text?.toLowerCase(),
      );
      const sql = `SELECT ${COLUMNS} FROM journal ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`;
      return db
        .prepare<(string | number)[], Row>(sql)
        .all(...params, f.limit)
        .map(toEntry);
    },

    /** The entries that refer to an attempt: its outcome, and any status checks. */
    followUps(seq: number): JournalEntry[] {
      return db
        .prepare<[number], Row>(`SELECT ${COLUMNS} FROM journal WHERE refers_to = ? ORDER BY seq`)
        .all(seq)
        .map(toEntry);
    },

    /**
     * Actions whose outcome is not known: attempts with nothing after them (the app stopped in between), or whose
     * last follow-up says `unknown`. Newest first.
     */
    unresolved(): { attempt: JournalEntry; outcome: JournalEntry | null }[] {
      const rows = db
        .prepare<[], Row & { last_outcome: string | null; last_seq: number | null }>(
          `SELECT ${COLUMNS.split(', ')
            .map((c) => `a.${c}`)
            .join(', ')},
             f.outcome AS last_outcome, f.seq AS last_seq
           FROM journal a
           LEFT JOIN journal f ON f.seq = (SELECT max(seq) FROM journal WHERE refers_to = a.seq)
           WHERE a.outcome = 'attempted' AND (f.seq IS NULL OR f.outcome = 'unknown')
           ORDER BY a.seq DESC`,
        )
        .all();
      return rows.map((r) => ({ attempt: toEntry(r), outcome: r.last_seq === null ? null : this.get(r.last_seq) }));
    },

    /**
     * The newest export entry that wrote a file with this SHA-256 (any of its files: a split CSV's parts, a sidecar),
     * else the newest that wrote a file of this name.
     */
    findExport(sha256: string, fileName: string): { entry: JournalEntry; sameContent: boolean } | null {
      const find = (field: 'sha256' | 'fileName', value: string) =>
        db
          .prepare<[string], Row>(
            `SELECT ${COLUMNS} FROM journal WHERE kind = 'export' AND outcome = 'completed'
             AND EXISTS (SELECT 1 FROM json_each(data, '$.files') WHERE json_extract(value, '$.${field}') = ?)
             ORDER BY seq DESC LIMIT 1`,
          )
          .get(value);
      const byHash = find('sha256', sha256);
      if (byHash) return { entry: toEntry(byHash), sameContent: true };
      const byName = find('fileName', fileName);
      return byName ? { entry: toEntry(byName), sameContent: false } : null;
    },

    /** The last entry's sequence number and hash; seq 0 and the genesis hash for an empty journal. */
    head(): JournalHead {
      const tail = last.get();
      return tail ? { seq: tail.seq, hash: tail.hash } : { seq: 0, hash: GENESIS_HASH };
    },

    /**
     * The chain checked from the first entry to the head in the settings (verify.ts). Its answer is kept as the last
     * verification, which the Today screen dates (whichever process verified: the app or the CLI).
     */
    async verify(verifyOptions: VerifyOptions = {}): Promise<VerifyResult> {
      const r = await verifyJournal(db, heads.journalHead(profileId), {
        ...verifyOptions,
        nativeBinding: options.nativeBinding,
      });
      verifications.record.run(options.now().toISOString(), r.ok ? 1 : 0, r.entries, r.problem?.message ?? null);
      return r;
    },

    /** The last verification's time and answer; null before the first. */
    lastVerification(): LastVerification | null {
      const row = verifications.last.get();
      return row ? { at: row.at, ok: row.ok === 1, entries: row.entries, problem: row.problem } : null;
    },
  };
}
export type Journal = ReturnType<typeof createJournal>;
