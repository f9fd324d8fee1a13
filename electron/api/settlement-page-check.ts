/**
 * The settlement page's fast path. A sync reads millions of records, and walking each one through the zod schema
 * (`settlementFetchResponse`) cost about a third of the client's rate. This checks a page against the same rules
 * with plain code and converts its money exactly as the schema does (the same functions of shared/money.ts):
 * it answers the very value the schema would, or `undefined` as soon as anything is not what the common case
 * looks like, and the client then runs the schema, which names the operation and the field that is wrong.
 *
 * Nothing is changed until the whole page has passed, so a page that falls back reaches the schema exactly as it
 * arrived. The tests hold it to the schema: every page it accepts, the schema accepts with an equal value, over
 * sandbox pages and over records broken field by field.
 *
 * A page it accepts is also proven flat (an object, its records, their values: nothing nests deeper), so the client
 * skips its depth walk for it: every named field is checked to be text, a number or null, and a field the contract
 * does not name must hold no object or array either (a page with one steps aside to the walk and the schema).
 */
import type { SettlementPage } from '../../shared/api/settlements';
import { MoneyError, integerMinor, majorNumberToMinor, parseDecimalToMinor } from '../../shared/money';
import { isIstDateTime } from '../../shared/time';

type Loose = Record<string, unknown>;

const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string';
const isTextOrNull = (v: unknown) => v === null || typeof v === 'string';
const isTime = (v: unknown) => typeof v === 'string' && isIstDateTime(v);

/** The major-unit fields (decimal text or a JSON number of rupees), converted to paise. */
const MAJOR = ['merchant_subvention_amount', 'cgst', 'igst', 'sgst'] as const;
/** The fields already in paise: whole numbers, kept as they are. */
const MINOR = ['amount', 'mer_service_fee', 'mer_service_tax', 'settled_amount'] as const;
/**
 * The charges (a fee and its GST), never negative; the schema refuses a negative one by name, so such a page is left
 * to it. Amounts and settled amounts may be negative (refunds, chargebacks).
 */
const CHARGES: ReadonlySet<string> = new Set(['mer_service_fee', 'mer_service_tax', 'cgst', 'igst', 'sgst']);

function majorToMinor(v: unknown): number | undefined {
  try {
    if (typeof v === 'string') return parseDecimalToMinor(v);
    if (typeof v === 'number') return majorNumberToMinor(v);
  } catch (e) {
    if (!(e instanceof MoneyError)) throw e;
  }
  return undefined;
}

function minorIsExact(v: unknown): boolean {
  if (typeof v !== 'number') return false;
  try {
    integerMinor(v);
    return true;
  } catch {
    return false;
  }
}

/** "", null and a missing UTR all mean none, as the schema reads them. */
const utrOf = (v: string | null | undefined): string | null => (v == null || v.trim() === '' ? null : v);

/** The fields every record must hold: the nine of text, times and ids checked below, MINOR and MAJOR. */
const REQUIRED_FIELDS = 9 + MINOR.length + MAJOR.length;

/**
 * True when `r` holds nothing but its `named` checked fields, or any other field is text, a number, a boolean or
 * null. Counting keys costs a fraction of reading each value (no allocation either), and records seldom carry more.
 */
function onlyFlatFields(r: Loose, named: number): boolean {
  let keys = 0;
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- only counted: reading a value is what costs
  for (const _ in r) keys++;
  if (keys === named) return true;
  for (const key in r) {
    const v = r[key];
    if (typeof v === 'object' && v !== null) return false;
  }
  return true;
}

/** The page as `settlementFetchResponse` parses it, or undefined when the schema must decide. */
export function checkSettlementPage(json: unknown): SettlementPage | undefined {
  if (!isObject(json)) return undefined;
  const { status, data, is_last_page, request_id } = json;
  if ((status !== true && status !== 'true') || !Array.isArray(data) || typeof is_last_page !== 'boolean') {
    return undefined;
  }
  if (request_id !== undefined && typeof request_id !== 'string') return undefined;
  // The page's other fields: any but `data` holding an object or array leaves the page to the depth walk.
  for (const key in json) if (key !== 'data' && typeof json[key] === 'object' && json[key] !== null) return undefined;
  const converted = new Float64Array(data.length * MAJOR.length);
  for (let i = 0; i < data.length; i++) {
    const r: unknown = data[i];
    if (!isObject(r)) return undefined;
    const { utr, pg } = r;
    if (
      !isTextOrNull(r['order_id']) ||
      !isText(r['pg_transaction_id']) ||
      !isTime(r['order_date']) ||
      !(utr === undefined || isTextOrNull(utr)) ||
      !isTime(r['settlement_date']) ||
      !isText(r['order_status']) ||
      !isText(r['pg_status']) ||
      !isText(r['payment_mode']) ||
      !isTextOrNull(r['dispute_id']) ||
      !isTextOrNull(r['description']) ||
      !(pg === undefined || isText(pg))
    ) {
      return undefined;
    }
    for (const field of MINOR) {
      if (!minorIsExact(r[field]) || (CHARGES.has(field) && (r[field] as number) < 0)) return undefined;
    }
    for (let k = 0; k < MAJOR.length; k++) {
      const minor = majorToMinor(r[MAJOR[k]!]);
      if (minor === undefined || (minor < 0 && CHARGES.has(MAJOR[k]!))) return undefined;
      converted[i * MAJOR.length + k] = minor;
    }
    if (!onlyFlatFields(r, REQUIRED_FIELDS + (utr === undefined ? 0 : 1) + (pg === undefined ? 0 : 1))) {
      return undefined;
    }
  }
  // Every record passed: only now is anything written, into the objects JSON.parse made for this answer.
  for (let i = 0; i < data.length; i++) {
    const r = data[i] as Loose;
    for (let k = 0; k < MAJOR.length; k++) r[MAJOR[k]!] = converted[i * MAJOR.length + k];
    r['utr'] = utrOf(r['utr'] as string | null | undefined);
  }
  return { data: data as SettlementPage['data'], is_last_page, request_id };
}
