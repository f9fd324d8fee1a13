/**
 * The check of one stretch of the journal, by sequence number: every entry numbered in `[lo, hi)` is read in
 * order and must follow the one before it (number and link) and hash to its stored hash. The link into the
 * stretch's first entry, and the stretches' order, are the caller's to check (verify.ts): that is what lets
 * several stretches be checked at once, each on its own connection.
 *
 * Rows are read a page at a time with `all()` rather than one by one with `iterate()`: a page costs one call into
 * SQLite instead of one per row, which made reading a million entries about a quarter faster (test/bench/journal.ts).
 *
 * SQLite writes each entry's canonical form itself (`SQL_CANONICAL`): one string a row crosses into JavaScript
 * instead of eleven fields to quote and join there, about a third of the CPU time of a check. canonicalEntry stays
 * the definition: an entry whose SQLite form does not hash to its stored hash is read field by field and hashed
 * through canonicalEntry before it is called edited, so a field SQLite writes differently (a number stored as a real,
 * an escape written another way) costs one more read, never a wrong answer. The other way cannot happen: a form
 * that hashes to the stored hash is, byte for byte, the JSON text the entry was written as, and its fields are that
 * text's.
 */
import type { Database } from 'better-sqlite3';
import type { VerifyResult } from '../../shared/journal';
import { canonicalEntry, chainHash } from './canonical';

const PAGE = 5_000;

export type Problem = NonNullable<VerifyResult['problem']>;

export interface RangeCheck {
  /** Entries read before the first problem (all of them if none). */
  count: number;
  /** The first entry read (whether or not it holds): its number and the hash it says precedes it. */
  first: { seq: number; prevHash: string } | null;
  /** The last entry that held. */
  last: { seq: number; hash: string } | null;
  /** The stored hash of entry `headSeq`, when it is in the stretch and held. */
  headHash: string | null;
  /** The first entry that does not hold, found within the stretch (the link into its first entry aside). */
  problem: Problem | null;
}

/**
 * A field as JSON, written by SQLite: json_quote gives text as a JSON string and numbers and NULL as JSON; a BLOB
 * (which json_quote refuses) gives a `!`, which no JSON holds, so its entry is checked field by field.
 */
const quoted = (column: string) => `CASE typeof(${column}) WHEN 'blob' THEN '!' ELSE json_quote(${column}) END`;

/** canonicalEntry's text, in SQL: the same keys in the same order, `data` as stored (canonical JSON text). */
export const SQL_CANONICAL =
  `'{"appVersion":' || ${quoted('app_version')} || ',"at":' || ${quoted('at')} || ` +
  `',"data":' || CASE typeof(data) WHEN 'text' THEN data ELSE '!' END || ',"event":' || ${quoted('event')} || ` +
  `',"kind":' || ${quoted('kind')} || ',"osUser":' || ${quoted('os_user')} || ',"outcome":' || ${quoted('outcome')} || ` +
  `',"refersTo":' || ${quoted('refers_to')} || ',"requestId":' || ${quoted('request_id')} || ` +
  `',"seq":' || seq || ',"summary":' || ${quoted('summary')} || '}'`;

type CanonicalRow = [seq: number, event: string, prevHash: string, hash: string, canonical: string];

type JournalRow = [
  seq: number,
  at: string,
  kind: string,
  event: string,
  outcome: string,
  refersTo: number | null,
  requestId: string | null,
  summary: string,
  data: string,
  appVersion: string,
  osUser: string,
  prevHash: string,
  hash: string,
];

/** The sequence-gap problem found at `expected` when the next entry read is `seq`. */
export function sequenceProblem(expected: number, seq: number): Problem {
  return {
    seq: expected,
    kind: 'sequence_gap',
    message:
      seq > expected
        ? `Entry ${expected} is missing (the next one is ${seq}): an entry was deleted.`
        : `Entry ${seq} is out of sequence after entry ${expected - 1}: an entry was inserted.`,
  };
}

export function brokenLinkProblem(seq: number): Problem {
  return {
    seq,
    kind: 'broken_link',
    message: `Entry ${seq} does not follow entry ${seq - 1}: an entry was deleted, inserted or moved here.`,
  };
}

export function verifyRange(db: Database, lo: number, hi: number, headSeq: number | null): RangeCheck {
  const page = db
    .prepare(
      `SELECT seq, event, prev_hash, hash, ${SQL_CANONICAL}
       FROM journal WHERE seq >= ? AND seq < ? ORDER BY seq LIMIT ${PAGE}`,
    )
    .raw();
  const entry = db
    .prepare(
      `SELECT seq, at, kind, event, outcome, refers_to, request_id, summary, data, app_version, os_user, prev_hash, hash
       FROM journal WHERE seq = ?`,
    )
    .raw();
  /** The entry's hash through canonicalEntry, from its fields as JavaScript reads them. */
  const hashedByFields = (seq: number): string => {
    const [, at, kind, event, outcome, refersTo, requestId, summary, data, appVersion, osUser, prevHash] = entry.get(
      seq,
    ) as JournalRow;
    const fields = { seq, at, kind, event, outcome, refersTo, requestId, summary, data, appVersion, osUser };
    return chainHash(prevHash, canonicalEntry(fields));
  };
  const check: RangeCheck = { count: 0, first: null, last: null, headHash: null, problem: null };
  let expected = lo;
  let from = lo;
  for (;;) {
    const rows = page.all(from, hi) as CanonicalRow[];
    for (const [seq, event, prevHash, hash, canonical] of rows) {
      check.first ??= { seq, prevHash };
      if (seq !== expected) {
        check.problem = sequenceProblem(expected, seq);
        return check;
      }
      if (check.last !== null && prevHash !== check.last.hash) {
        check.problem = brokenLinkProblem(seq);
        return check;
      }
      if (chainHash(prevHash, canonical) !== hash && hashedByFields(seq) !== hash) {
        check.problem = {
          seq,
          kind: 'edited',
          message: `Entry ${seq} (${event}) was changed after it was written: its hash does not match.`,
        };
        return check;
      }
      if (seq === headSeq) check.headHash = hash;
      check.last = { seq, hash };
      check.count++;
      expected++;
    }
    if (rows.length < PAGE) return check;
    from = expected;
  }
}
