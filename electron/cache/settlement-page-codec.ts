/**
 * A page of validated settlement records in a form that crosses to the sync's writer thread cheaply
 * (settlement-writer.ts). Posting the records themselves costs a structured clone of a thousand objects: about
 * half of what `JSON.parse` of the same page costs, on the thread that parses (measured with `v8.serialize` and
 * `postMessage` over sandbox pages). Here the page is columns instead: every text value of the page joined into one
 * text with each value's length, and the amounts as doubles (integer paise, exact far past any amount). The writer
 * rebuilds the records as the schema gave them, unnamed fields included, so one ingest path writes both ways.
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

/**
 * One buffer: the values' lengths (Int32, -1 for null), the amounts (Float64) and the text (UTF-16), in that order.
 * It is shared with the writer thread and filled again with a later page once the writer has read it
 * (settlement-writer.ts), so a page allocates nothing on either thread and crosses as a few numbers: posting the
 * text as a string left each page's copy to the other thread's allocator (on Linux tens of MB it kept, seen in the
 * sync bench's peak RSS), and transferring a buffer each page cost the parsing thread a few tenths of a ms a page.
 */
export interface EncodedPage {
  count: number;
  /** UTF-16 code units of the text. */
  textLength: number;
  buffer: SharedArrayBuffer;
}

function layout(count: number, textLength: number) {
  const lengthsBytes = count * TEXTS * 4;
  const numbersAt = Math.ceil(lengthsBytes / 8) * 8;
  const textAt = numbersAt + count * NUMBER_FIELDS.length * 8;
  return { numbersAt, textAt, bytes: textAt + textLength * 2 };
}

/** `reuse`: the buffer of an earlier page, filled again when big enough (the page says which buffer it is in). */
export function encodePage(records: readonly SettlementRecord[], reuse?: SharedArrayBuffer): EncodedPage {
  const count = records.length;
  const { numbersAt, textAt } = layout(count, 0);
  // The text's size is known only once it is joined: a buffer too small for it then is replaced, its columns copied.
  let buffer = reuse && reuse.byteLength >= textAt ? reuse : new SharedArrayBuffer(textAt * 4);
  const lengths = new Int32Array(buffer, 0, count * TEXTS);
  const numbers = new Float64Array(buffer, numbersAt, count * NUMBER_FIELDS.length);
  const parts: string[] = [];
  let n = 0;
  let t = 0;
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
  const text = parts.join('');
  const { bytes } = layout(count, text.length);
  if (buffer.byteLength < bytes) {
    // Room to spare, so that a slightly longer page next does not need a new buffer again.
    const bigger = new SharedArrayBuffer(Math.ceil(bytes * 1.25));
    new Uint8Array(bigger).set(new Uint8Array(buffer, 0, textAt));
    buffer = bigger;
  }
  Buffer.from(buffer, textAt, text.length * 2).write(text, 'utf16le');
  return { count, textLength: text.length, buffer };
}

export function decodePage({ count, textLength, buffer }: EncodedPage): SettlementRecord[] {
  const { numbersAt, textAt } = layout(count, textLength);
  const lengths = new Int32Array(buffer, 0, count * TEXTS);
  const numbers = new Float64Array(buffer, numbersAt, count * NUMBER_FIELDS.length);
  const text = Buffer.from(buffer, textAt, textLength * 2).toString('utf16le');
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
      // defineProperty, not assignment: whatever the text holds, it never reaches the record's prototype.
      for (const [k, v] of Object.entries(JSON.parse(extra) as Record<string, unknown>)) {
        Object.defineProperty(r, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
    }
    records[i] = r as SettlementRecord;
  }
  return records;
}
