/**
 * A page of validated settlement records in a form that crosses to the sync's writer thread cheaply
 * (settlement-writer.ts). Posting the records themselves costs a structured clone of a thousand objects: about
 * half of what `JSON.parse` of the same page costs, on the thread that parses (measured with `v8.serialize` and
 * `postMessage` over sandbox pages). Here the page is columns instead: every text value of the page in one string
 * (a copy, no per-value work) with each value's length (-1 for null), and the amounts as doubles (integer paise and
 * whole rupees' paise, exact far past any amount) in a buffer that is transferred, not copied. The writer rebuilds the
 * records as the schema gave them, unnamed fields included, so one ingest path writes both ways.
 */
import { settlementRecord, type SettlementRecord } from '../../shared/api/settlements';
import { unnamedFieldsJson } from './unnamed-fields';

const TEXT_FIELDS = [
  'order_id',
  'pg_transaction_id',
  'order_date',
  'utr',
  'settlement_date',
  'order_status',
  'pg_status',
  'payment_mode',
  'dispute_id',
  'description',
  'pg',
] as const satisfies readonly (keyof SettlementRecord)[];

const NUMBER_FIELDS = [
  'amount',
  'mer_service_fee',
  'mer_service_tax',
  'merchant_subvention_amount',
  'cgst',
  'igst',
  'sgst',
  'settled_amount',
] as const satisfies readonly (keyof SettlementRecord)[];

/** The text columns, then the unnamed fields as JSON text. */
const TEXTS = TEXT_FIELDS.length + 1;
const KNOWN = new Set(Object.keys(settlementRecord.shape));

export interface EncodedPage {
  count: number;
  text: string;
  lengths: Int32Array;
  numbers: Float64Array;
}

export function encodePage(records: readonly SettlementRecord[]): EncodedPage {
  const count = records.length;
  const lengths = new Int32Array(count * TEXTS);
  const numbers = new Float64Array(count * NUMBER_FIELDS.length);
  const parts: string[] = [];
  let t = 0;
  let n = 0;
  for (const r of records) {
    for (const f of TEXT_FIELDS) {
      // `pg` is the one optional field: absent is written as null and read back as absent.
      const v = r[f] ?? null;
      lengths[t++] = v === null ? -1 : v.length;
      if (v !== null) parts.push(v);
    }
    const extra = unnamedFieldsJson(r, KNOWN);
    lengths[t++] = extra === null ? -1 : extra.length;
    if (extra !== null) parts.push(extra);
    for (const f of NUMBER_FIELDS) numbers[n++] = r[f];
  }
  return { count, text: parts.join(''), lengths, numbers };
}

export function decodePage({ count, text, lengths, numbers }: EncodedPage): SettlementRecord[] {
  const records: SettlementRecord[] = new Array<SettlementRecord>(count);
  let at = 0;
  let t = 0;
  let n = 0;
  const next = (): string | null => {
    const length = lengths[t++]!;
    if (length < 0) return null;
    const v = text.slice(at, at + length);
    at += length;
    return v;
  };
  for (let i = 0; i < count; i++) {
    const r: Record<string, unknown> = {};
    for (const f of TEXT_FIELDS) {
      const v = next();
      if (v !== null || f !== 'pg') r[f] = v;
    }
    const extra = next();
    for (const f of NUMBER_FIELDS) r[f] = numbers[n++];
    if (extra !== null) {
      // defineProperty, not assignment: an unnamed field called `__proto__` stays a field, as in the record parsed.
      for (const [k, v] of Object.entries(JSON.parse(extra) as Record<string, unknown>)) {
        Object.defineProperty(r, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
    }
    records[i] = r as SettlementRecord;
  }
  return records;
}
