/**
 * An order-independent digest of the records a pass over a date returned, per gateway: two sums and an xor of
 * two 32-bit hashes of each record's key and every field, with the count. Two passes agree whatever order the
 * service returned the records in, and a record read from the service and the same record read back from the
 * cache digest alike (the row holds the values fieldValues gives). A check that two reads saw the same records,
 * not a signature.
 */
import type { SettlementRecord } from '../../shared/api/settlements';
import { fieldValues, type FieldValues } from './settlement-rows';

/** Two independent 32-bit FNV-1a style hashes of a text. */
function hashPair(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return [a >>> 0, b >>> 0];
}

interface Lane {
  records: number;
  settled: number;
  sumA: number;
  sumB: number;
  xor: number;
}

function recordLine(pg: string, txn: string, settledAt: string, values: FieldValues): string {
  return `${pg}\u001f${txn}\u001f${settledAt}\u001f${values.join('\u001f')}`;
}

function addLine(lane: Lane, settled: number, line: string): void {
  const [a, b] = hashPair(line);
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
        addLine(laneOf(pg), r.settled_amount, recordLine(pg, r.pg_transaction_id, r.settlement_date, fieldValues(r)));
      }
    },
    /** A stored row: its key, net settled and field values in FIELD_COLUMNS order (as written from the record). */
    addRow(pg: string, txn: string, settledAt: string, settled: number, values: FieldValues): void {
      addLine(laneOf(pg), settled, recordLine(pg, txn, settledAt, values));
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
