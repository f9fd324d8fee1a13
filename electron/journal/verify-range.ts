/**
 * The check of one stretch of the journal, by sequence number: every entry numbered in `[lo, hi)` is read in
 * order and must follow the one before it (number and link) and hash to its stored hash. The link into the
 * stretch's first entry, and the stretches' order, are the caller's to check (verify.ts): that is what lets
 * several stretches be checked at once, each on its own connection.
 *
 * Rows are read a page at a time with `all()` rather than one by one with `iterate()`: a page costs one call into
 * SQLite instead of one per row, which made reading a million entries about a quarter faster (test/bench/journal.ts).
 * Pages of 1,000 rather than 5,000: a page of 5,000 rows (about 5 MB of strings) does not fit the young
 * generation of a worker thread's heap, which starts small (the collector took a tenth of a worker's profile).
 * Verifying a million entries on two worker threads, the two sizes alternated in one process (four times, three
 * sessions, load 6–11):
 * median CPU time 4.06 s against 4.58, 4.00 against 4.44, 4.34 against 4.66.
 *
 * SQLite writes each entry's canonical form itself (`SQL_CANONICAL`), after its stored hash and the hash it links
 * to: one string a row crosses into JavaScript (with its number), and the text to hash is a slice of it. Quoting and
 * joining eleven fields in JavaScript cost about a third of the CPU time of a check. Measured on 300,000 entries
 * (CPU time, best of seven, at load 4–5): read and hashed as four values (number, the two hashes, the form) and
 * the text to hash joined in JavaScript, which `hash` then flattens and copies, 1.09 s; the link joined in SQLite,
 * 0.80 to 1.00 s; the hashes in the same string, 0.82 to 0.87 s. The form is one `concat()` of `json_quote`s, which
 * SQLite alone writes for 300,000 entries in 0.34 s, against 0.55 s with a `||` per piece (each copies the growing
 * text) and a `CASE` around each field for BLOBs; json_quote refuses a BLOB, so a page that holds one is read again
 * in the guarded form (`SQL_CANONICAL_GUARDED`: a BLOB gives `!`, which no JSON holds).
 *
 * The two hashes are cut from the front of the string by position, so SQLite hands it over only when both are text
 * of 64 bytes (else null: the entry is read field by field). A slice that equals a hash computed here (64 hex
 * digits) can only have come from 64 one-byte characters in their place, so a check the slices pass holds of the
 * stored values; a check they fail is made again on the fields as read (a hash holding other characters would put
 * the slices out of place), and so is the link of the stretch's first entry, which the caller checks.
 *
 * canonicalEntry stays the definition: an entry whose SQLite form does not hash to its stored hash is read field by
 * field and hashed through canonicalEntry before it is called edited, so a field SQLite writes differently (a number
 * stored as a real, an escape written another way, a BLOB) costs one more read, never a wrong answer. The other way
 * cannot happen: a form that hashes to the stored hash is, byte for byte, the JSON text the entry was written as,
 * and its fields are that text's.
 */
import type { Database } from 'better-sqlite3';
import { GENESIS_HASH, type VerifyResult } from '../../shared/journal';
import { canonicalEntry, chainHash, sha256Hex } from './canonical';

const PAGE = 1_000;
const HASH_LENGTH = GENESIS_HASH.length;

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
 * canonicalEntry's text as the arguments of an SQL `concat()`: the same keys in the same order, `data` as stored
 * (canonical JSON text), each other field through `quote`.
 */
const canonicalParts = (quote: (column: string) => string) =>
  `'{"appVersion":', ${quote('app_version')}, ',"at":', ${quote('at')}, ` +
  `',"data":', CASE typeof(data) WHEN 'text' THEN data ELSE '!' END, ',"event":', ${quote('event')}, ` +
  `',"kind":', ${quote('kind')}, ',"osUser":', ${quote('os_user')}, ',"outcome":', ${quote('outcome')}, ` +
  `',"refersTo":', ${quote('refers_to')}, ',"requestId":', ${quote('request_id')}, ` +
  `',"seq":', seq, ',"summary":', ${quote('summary')}, '}'`;

/** A field as JSON, written by SQLite: text as a JSON string, numbers and NULL as JSON; an error for a BLOB. */
const quoted = (column: string) => `json_quote(${column})`;
/** The same, but a BLOB gives a `!`, which no JSON holds, so its entry is checked field by field. */
const guarded = (column: string) => `CASE typeof(${column}) WHEN 'blob' THEN '!' ELSE json_quote(${column}) END`;

/** canonicalEntry's text, in SQL (an error where a field is a BLOB). */
export const SQL_CANONICAL = `concat(${canonicalParts(quoted)})`;
/** canonicalEntry's text, in SQL, whatever the fields hold. */
export const SQL_CANONICAL_GUARDED = `concat(${canonicalParts(guarded)})`;

/** A stored hash that is text of a hash's length in bytes: one the page's string is cut by. */
const plainHash = (column: string) => `typeof(${column}) = 'text' AND octet_length(${column}) = ${HASH_LENGTH}`;

/**
 * A page of entries from a number on, each as its number and one string: its stored hash, the hash it links to and
 * its form, the text its hash is over being the last two (null where a hash is not plain).
 */
const pageOf = (parts: string) =>
  `SELECT seq, iif(${plainHash('hash')} AND ${plainHash('prev_hash')}, concat(hash, prev_hash, ${parts}), NULL)
   FROM journal WHERE seq >= ? AND seq < ? ORDER BY seq LIMIT ${PAGE}`;
export const PAGE_SQL = pageOf(canonicalParts(quoted));
const PAGE_SQL_GUARDED = pageOf(canonicalParts(guarded));

type PageRow = [seq: number, hashes: string | null];

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
  const page = db.prepare(PAGE_SQL).raw();
  const pageGuarded = db.prepare(PAGE_SQL_GUARDED).raw();
  /** A page, read again in the guarded form if a field json_quote refuses (a BLOB) stopped the read. */
  const read = (from: number): PageRow[] => {
    try {
      return page.all(from, hi) as PageRow[];
    } catch {
      return pageGuarded.all(from, hi) as PageRow[];
    }
  };
  const entry = db
    .prepare(
      `SELECT seq, at, kind, event, outcome, refers_to, request_id, summary, data, app_version, os_user, prev_hash, hash
       FROM journal WHERE seq = ?`,
    )
    .raw();
  /** The entry read field by field: its hashes as stored, its event, and its hash through canonicalEntry. */
  const byFields = (seq: number) => {
    const [, at, kind, event, outcome, refersTo, requestId, summary, data, appVersion, osUser, prevHash, hash] =
      entry.get(seq) as JournalRow;
    const fields = { seq, at, kind, event, outcome, refersTo, requestId, summary, data, appVersion, osUser };
    return { prevHash, hash, event, hashed: chainHash(prevHash, canonicalEntry(fields)) };
  };
  const check: RangeCheck = { count: 0, first: null, last: null, headHash: null, problem: null };
  let expected = lo;
  let from = lo;
  for (;;) {
    const rows = read(from);
    for (const [seq, hashes] of rows) {
      let fields = hashes === null || check.first === null ? byFields(seq) : null;
      let hash = fields ? fields.hash : hashes!.slice(0, HASH_LENGTH);
      const prevHash = fields ? fields.prevHash : hashes!.slice(HASH_LENGTH, 2 * HASH_LENGTH);
      check.first ??= { seq, prevHash };
      if (seq !== expected) {
        check.problem = sequenceProblem(expected, seq);
        return check;
      }
      if (check.last !== null && prevHash !== check.last.hash) {
        fields ??= byFields(seq);
        if (fields.prevHash !== check.last.hash) {
          check.problem = brokenLinkProblem(seq);
          return check;
        }
      }
      if (fields === null && sha256Hex(hashes!.slice(HASH_LENGTH)) !== hash) fields = byFields(seq);
      if (fields !== null) {
        hash = fields.hash;
        if (fields.hashed !== hash) {
          check.problem = {
            seq,
            kind: 'edited',
            message: `Entry ${seq} (${fields.event}) was changed after it was written: its hash does not match.`,
          };
          return check;
        }
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
