/**
 * An order-independent digest of the records a pass over a date returned, per gateway: two sums and an xor of
 * two 32-bit hashes of each record's key and every field, with the count. Two passes agree whatever order the
 * service returned the records in, and a record read from the service and the same record read back from the
 * cache digest alike (the row holds the values fieldValues gives). A check that two reads saw the same records,
 * not a signature.
 */
import type { SettlementRecord } from '../../shared/api/settlements';
import { putFieldValues, type FieldValues } from './settlement-rows';

/**
 * The pieces of one record's line, in its order: gateway, transaction id, settlement time, then the field values in
 * FIELD_COLUMNS order. The line is their text joined by U+001F (null as nothing, a number as its shortest text); it
 * is hashed piece by piece, never built, so a record costs no array, no joined string and no garbage (this runs on
 * the thread that parses, for every record a sync reads).
 */
const PIECES: (string | number | null)[] = [];
const SEPARATOR = 0x1f;
/** The decimal digits of a whole number, most significant first, for hashing it without its text. */
const DIGITS = new Uint8Array(20);

/** How long a piece's text is: numbers outside the safe integers are rare enough to be turned into text. */
function pieceLength(v: string | number | null): number {
  if (v === null) return 0;
  if (typeof v === 'string') return v.length;
  if (!Number.isSafeInteger(v)) return String(v).length;
  let n = v < 0 ? -v : v;
  let length = v < 0 ? 2 : 1;
  while (n >= 10) {
    n = Math.floor(n / 10);
    length++;
  }
  return length;
}

/** The two hashes of the last line hashed (module state rather than a pair allocated per record). */
let hashA = 0;
let hashB = 0;

/** Two independent 32-bit FNV-1a style hashes of the line of `count` pieces (the same as of its text). */
function hashPieces(count: number): void {
  let length = count - 1;
  for (let p = 0; p < count; p++) length += pieceLength(PIECES[p]!);
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ length;
  for (let p = 0; p < count; p++) {
    if (p > 0) {
      a = Math.imul(a ^ SEPARATOR, 0x01000193);
      b = Math.imul(b ^ SEPARATOR, 0x5bd1e995) ^ (b >>> 15);
    }
    const v = PIECES[p]!;
    if (v === null) continue;
    const text = typeof v === 'string' ? v : Number.isSafeInteger(v) ? null : String(v);
    if (text !== null) {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        a = Math.imul(a ^ c, 0x01000193);
        b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
      }
      continue;
    }
    let n = v as number;
    if (n < 0) {
      a = Math.imul(a ^ 0x2d, 0x01000193);
      b = Math.imul(b ^ 0x2d, 0x5bd1e995) ^ (b >>> 15);
      n = -n;
    }
    let d = 0;
    do {
      const q = Math.floor(n / 10);
      DIGITS[d++] = n - q * 10;
      n = q;
    } while (n > 0);
    while (d > 0) {
      const c = 0x30 + DIGITS[--d]!;
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
    }
  }
  hashA = a >>> 0;
  hashB = b >>> 0;
}

interface Lane {
  records: number;
  settled: number;
  sumA: number;
  sumB: number;
  xor: number;
}

function addLine(lane: Lane, settled: number, count: number): void {
  hashPieces(count);
  const a = hashA;
  const b = hashB;
  lane.records++;
  lane.settled += settled;
  lane.sumA = (lane.sumA + a) >>> 0;
  lane.sumB = (lane.sumB + b) >>> 0;
  lane.xor = (lane.xor ^ Math.imul(a, 0x9e3779b1)) >>> 0;
}

const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');

function digestText(l: Lane): string {
  return `${l.records}-${hex(l.sumA)}${hex(l.sumB)}${hex(l.xor)}`;
}

/** The digest of no records, the manifest's for a gateway a pass returned nothing for. */
export const EMPTY_DIGEST = digestText({ records: 0, settled: 0, sumA: 0, sumB: 0, xor: 0 });

/** What one pass over a date saw, per gateway. */
export function createPassDigest(scopePg: string | null) {
  const lanes = new Map<string, Lane>();
  const laneOf = (pg: string) => {
    let lane = lanes.get(pg);
    if (!lane) lanes.set(pg, (lane = { records: 0, settled: 0, sumA: 0, sumB: 0, xor: 0 }));
    return lane;
  };
  return {
    add(records: readonly SettlementRecord[]): void {
      for (const r of records) {
        const pg = r.pg ?? scopePg ?? '';
        PIECES[0] = pg;
        PIECES[1] = r.pg_transaction_id;
        PIECES[2] = r.settlement_date;
        addLine(laneOf(pg), r.settled_amount, 3 + putFieldValues(r, PIECES, 3));
      }
    },
    /** A stored row: its key, net settled and field values in FIELD_COLUMNS order (as written from the record). */
    addRow(pg: string, txn: string, settledAt: string, settled: number, values: FieldValues): void {
      PIECES[0] = pg;
      PIECES[1] = txn;
      PIECES[2] = settledAt;
      for (let i = 0; i < values.length; i++) PIECES[3 + i] = values[i]!;
      addLine(laneOf(pg), settled, 3 + values.length);
    },
    /** Per gateway: records, net settled in paise, digest. */
    gateways(): Map<string, { records: number; settled: number; digest: string }> {
      const out = new Map<string, { records: number; settled: number; digest: string }>();
      for (const [pg, l] of [...lanes].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
        out.set(pg, { records: l.records, settled: l.settled, digest: digestText(l) });
      }
      return out;
    },
    /** The whole pass in one text: equal for two passes that saw the same records. */
    digest(): string {
      return [...this.gateways()].map(([pg, g]) => `${pg}:${g.digest}`).join(' ');
    },
  };
}
export type PassDigest = ReturnType<typeof createPassDigest>;
