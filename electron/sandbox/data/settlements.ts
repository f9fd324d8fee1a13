/**
 * Settlement records, computed on demand. Record `index` of a settlement date is a pure function of
 * (seed, date, index): nothing is generated ahead, so a sandbox with 1,000,000 records a day starts at
 * once and a page costs O(limit). Record i belongs to gateway i % gateways.length, which makes a `pg`
 * filter a stride over the indices. Order within a date is by index, stable across calls.
 *
 * Money is integer paise, except the four decimal-rupee strings the wire uses. Every normal record obeys
 * the project's reconciliation rule:
 *     mer_service_tax = cgst + sgst + igst                      (paise; intra-state cgst = sgst, igst 0;
 *                                                               inter-state igst only)
 *     settled_amount  = amount - mer_service_fee - mer_service_tax + merchant_subvention_amount
 * with the fee 1.5-2% of the amount by payment mode and the tax 18% of the fee.
 *
 * Batches, as real gateways settle: each gateway settles a date in 1-3 cycles (seeded per date and gateway),
 * 4 hours apart from a first cycle between 10:00 and 14:00 IST. Record i is gateway i % G's record number
 * p = floor(i / G), and belongs to cycle p % cycles: one bank credit, one `utr` and one `settlement_date` per
 * (date, gateway, cycle). About 6% of batches arrive with `utr` "" (the interface types utr as a string,
 * never null) and get their UTR later: `fillPendingUtrs` (test hook) or a mutation of one of their records.
 * The batch's bank credit carries the UTR from the start (bank-statement.ts): the bank knew it.
 *
 * Exceptions, chosen per record from its hash (about 2.7% in all, plus the records of UTR-pending batches):
 *   0.8% open dispute            dispute_id set, description says so; amounts normal
 *   0.8% failed                  pg_status/order_status "failed", no fee, tax or settlement (settled 0)
 *   0.2% failed but settled      pg_status "failed" yet amounts normal: money moved for a failed payment
 *   0.4% off by a few paise      settled_amount differs from the rule by 1-9 paise either way
 *   0.5% settled twice           same pg_transaction_id (and order, amounts) as an earlier plain record of
 *                                the same gateway: on the previous date, or the same day in another
 *                                settlement cycle (a different batch: time and UTR, so gateway +
 *                                transaction id + settlement_date stays unique)
 *
 * Debits netted out of the batch (not exceptions: they obey the rule), as real gateways settle them:
 *   2%   refund                  a negative line for all or part of a plain sale of the same gateway 1-7 days
 *                                back (its order id, payment mode and order time); its own id `rfnd_…`,
 *                                order_status and pg_status "refunded", dispute_id null
 *   0.2% chargeback              a negative line for the whole of such a sale; its own id `adj_…`,
 *                                order_status and pg_status "chargeback", dispute_id set (the dispute lost)
 * Neither carries a fee, tax or subvention, and the sale's fee and GST are not given back: settled_amount =
 * amount, both negative (docs/design/not-shown.md).
 */
import { addDays } from '../../../shared/time';
import { Rng, dayNumber, hash32, permute40 } from '../random';

export interface SettlementWire {
  order_id: string | null;
  pg_transaction_id: string;
  order_date: string;
  utr: string;
  settlement_date: string;
  order_status: string;
  pg_status: string;
  payment_mode: string;
  amount: number;
  mer_service_fee: number;
  mer_service_tax: number;
  merchant_subvention_amount: string;
  cgst: string;
  igst: string;
  sgst: string;
  settled_amount: number;
  dispute_id: string | null;
  description: string | null;
  pg: string;
}

type Exception = 'none' | 'dispute' | 'failed' | 'failedSettled' | 'offByPaise' | 'duplicate' | Debit;
/** Lines that take money back out of a batch. */
type Debit = 'refund' | 'chargeback';

const EXCEPTIONS: readonly (readonly [Exception, number])[] = [
  ['dispute', 0.008],
  ['failed', 0.008],
  ['failedSettled', 0.002],
  ['offByPaise', 0.004],
  ['duplicate', 0.005],
  ['refund', 0.02],
  ['chargeback', 0.002],
];

const MODES: readonly (readonly [string, number])[] = [
  ['UPI', 50],
  ['CC', 15],
  ['DC', 15],
  ['NB', 12],
  ['WALLET', 8],
];

/** Fee in basis points by payment mode: all within the 1.5-2% the rule assumes. */
const FEE_BPS: Readonly<Record<string, number>> = { UPI: 150, NB: 175, DC: 160, CC: 200, WALLET: 190 };

/** Transaction ids are unique for index < 2^20; the CLI and startSandbox refuse more per day. */
export const MAX_PER_DAY = 1_000_000;

const INDEX_SPACE = 0x100000;

/** Settlement cycles are this far apart; at most three, so the last one starts by 22:00 IST. */
const CYCLE_GAP_SECONDS = 4 * 3600;
const MAX_CYCLES = 3;
/** Share of batches that arrive with utr "" and get it later. */
const PENDING_UTR_SHARE = 0.06;

/** One bank credit of a gateway: a settlement cycle of a date. */
export interface BatchRef {
  date: string;
  gatewayIndex: number;
  cycle: number;
}

interface Patch {
  utr?: string;
  dispute_id?: string | null;
  description?: string | null;
}

interface DateMutations {
  generation: number;
  changed: Map<number, Patch>;
  /** Indices of records that vanished, kept sorted for paging. */
  removed: number[];
}

/** Which records a mutation touched, named by their natural key (pg, pg_transaction_id, settlement_date). */
export interface MutationReport {
  date: string;
  changed: { index: number; pg: string; pg_transaction_id: string; settlement_date: string; fields: string[] }[];
  removed: { index: number; pg: string; pg_transaction_id: string; settlement_date: string }[];
  /** Records removed earlier and listed again: to a client paging the date, records added. */
  restored: { index: number; pg: string; pg_transaction_id: string; settlement_date: string }[];
}

export class SettlementSource {
  private readonly mutations = new Map<string, DateMutations>();
  /** Per date, the UTR-pending batches (gatewayIndex * 8 + cycle) whose UTR has been filled in. */
  private readonly filled = new Map<string, Set<number>>();
  /** The key of the id permutation: a function of the seed alone, so computed once. */
  private readonly idKey: number;

  constructor(
    readonly seed: number,
    readonly perDay: number,
    readonly gateways: readonly string[],
  ) {
    if (!Number.isSafeInteger(perDay) || perDay < 0 || perDay > MAX_PER_DAY) {
      throw new RangeError(`settlements per day must be a whole number from 0 to ${MAX_PER_DAY}`);
    }
    this.idKey = permuteKey(seed);
  }

  /** Record `index` of `date` as served now (mutations applied); undefined when it has vanished. */
  record(date: string, index: number): SettlementWire | undefined {
    const m = this.mutations.get(date);
    if (m && binarySearch(m.removed, index) >= 0) return undefined;
    const rec = this.served(date, dayNumber(date), index);
    const patch = m?.changed.get(index);
    return patch ? { ...rec, ...patch } : rec;
  }

  /** How many settlement cycles (batches) a gateway has on a date. */
  cycles(day: number, gatewayIndex: number): number {
    return 1 + (hash32(this.seed, day, gatewayIndex, 0xc7c1e) % MAX_CYCLES);
  }

  /** The batch record `index` of a date belongs to. */
  batchOf(date: string, index: number): BatchRef {
    const n = this.gateways.length;
    const gatewayIndex = index % n;
    return { date, gatewayIndex, cycle: Math.floor(index / n) % this.cycles(dayNumber(date), gatewayIndex) };
  }

  /** The batch's UTR as the bank knows it, whether or not the API shows it yet. */
  batchUtr(day: number, gatewayIndex: number, cycle: number): string {
    return new Rng(hash32(this.seed, day, gatewayIndex * 8 + cycle, 0xb47c8)).digits(12);
  }

  /** The batch's settlement time, `YYYY-MM-DD HH:MM:SS` IST. */
  batchTime(day: number, gatewayIndex: number, cycle: number): string {
    const seconds = 10 * 3600 + (hash32(this.seed, day, gatewayIndex, 0xba7c4) % (4 * 3600));
    return istText(day, seconds + cycle * CYCLE_GAP_SECONDS);
  }

  /** Whether the batch arrives with utr "" (before any fill). */
  batchArrivesPending(day: number, gatewayIndex: number, cycle: number): boolean {
    return hash32(this.seed, day, gatewayIndex * 8 + cycle, 0x9e4d1) / 4294967296 < PENDING_UTR_SHARE;
  }

  /** Whether the API shows utr "" for the batch now. */
  batchPending(date: string, gatewayIndex: number, cycle: number): boolean {
    const day = dayNumber(date);
    return (
      this.batchArrivesPending(day, gatewayIndex, cycle) &&
      !(this.filled.get(date)?.has(gatewayIndex * 8 + cycle) ?? false)
    );
  }

  /**
   * Gives every UTR-pending batch of a date its UTR, as a gateway does a day or so later; answers which batches
   * (gateway, settlement time, the UTR now shown).
   */
  fillPendingUtrs(date: string): { pg: string; settlement_date: string; utr: string }[] {
    const day = dayNumber(date);
    const done = this.filled.get(date) ?? new Set<number>();
    this.filled.set(date, done);
    const out: { pg: string; settlement_date: string; utr: string }[] = [];
    this.gateways.forEach((pg, gi) => {
      for (let c = 0; c < this.cycles(day, gi); c++) {
        if (!this.batchArrivesPending(day, gi, c) || done.has(gi * 8 + c)) continue;
        done.add(gi * 8 + c);
        out.push({ pg, settlement_date: this.batchTime(day, gi, c), utr: this.batchUtr(day, gi, c) });
      }
    });
    return out;
  }

  /** The record as generated, with its batch's UTR once that has been filled; mutations not applied. */
  private served(date: string, day: number, index: number): SettlementWire {
    const rec = this.generate(day, index);
    if (rec.utr !== '') return rec;
    const n = this.gateways.length;
    const gi = index % n;
    const cycle = Math.floor(index / n) % this.cycles(day, gi);
    return this.batchPending(date, gi, cycle) ? rec : { ...rec, utr: this.batchUtr(day, gi, cycle) };
  }

  /**
   * One page of a date's records, optionally of one gateway. Offsets count the records that survive
   * mutations, as a real API's would: a removal shifts the later offsets of that date.
   */
  page(
    date: string,
    pg: string | undefined,
    offset: number,
    limit: number,
  ): { data: SettlementWire[]; isLastPage: boolean } {
    const gi = pg === undefined ? 0 : this.gateways.indexOf(pg);
    if (gi < 0) return { data: [], isLastPage: true };
    const stride = pg === undefined ? 1 : this.gateways.length;
    const total = gi < this.perDay ? Math.floor((this.perDay - 1 - gi) / stride) + 1 : 0;
    const m = this.mutations.get(date);
    const removed = (m?.removed ?? []).filter((i) => i >= gi && (i - gi) % stride === 0).map((i) => (i - gi) / stride);
    const surviving = total - removed.length;
    if (offset >= surviving) return { data: [], isLastPage: true };

    const day = dayNumber(date);
    const data: SettlementWire[] = [];
    let pos = kthSurvivor(offset, removed);
    let r = upperBound(removed, pos - 1);
    while (data.length < limit && pos < total) {
      if (r < removed.length && removed[r] === pos) {
        r++;
        pos++;
        continue;
      }
      const index = gi + pos * stride;
      const rec = this.served(date, day, index);
      const patch = m?.changed.get(index);
      data.push(patch ? { ...rec, ...patch } : rec);
      pos++;
    }
    return { data, isLastPage: offset + data.length >= surviving };
  }

  /**
   * Changes `count` records of a date and removes `remove` others, deterministically from
   * (seed, date, how many times this date was mutated). A change gives a record a new UTR (a re-settlement),
   * fills a missing UTR, or opens a dispute; a removal makes the record vanish from every later page.
   */
  mutate(date: string, count: number, remove: number, restore = 0): MutationReport {
    const day = dayNumber(date);
    const m = this.mutations.get(date) ?? { generation: 0, changed: new Map<number, Patch>(), removed: [] };
    this.mutations.set(date, m);
    const rng = new Rng(hash32(this.seed, day, m.generation++, 0x307a7e));
    const report: MutationReport = { date, changed: [], removed: [], restored: [] };
    // Restored first (the lowest positions, which shift the most records behind them), so a removal in the
    // same call is never undone by it.
    for (const index of m.removed.splice(0, restore)) {
      report.restored.push({ index, ...naturalKey(this.generate(day, index)) });
    }
    const untouched = (i: number) => !m.changed.has(i) && binarySearch(m.removed, i) < 0;
    const available = this.perDay - m.changed.size - m.removed.length;
    const want = Math.min(count + remove, available);
    const picked: number[] = [];
    while (picked.length < want) {
      const i = rng.int(0, this.perDay - 1);
      if (untouched(i) && !picked.includes(i)) picked.push(i);
    }
    picked.forEach((index, n) => {
      const rec = this.served(date, day, index);
      if (n < Math.min(count, want)) {
        const batch = this.batchOf(date, index);
        const patch: Patch =
          rec.utr === ''
            ? { utr: this.batchUtr(day, batch.gatewayIndex, batch.cycle) }
            : n % 2 === 0 || rec.dispute_id
              ? { utr: rng.digits(12), description: 'Re-settled under a new UTR' }
              : { dispute_id: `dsp_${rng.base36(10)}`, description: 'Chargeback raised after settlement' };
        m.changed.set(index, patch);
        report.changed.push({ index, ...naturalKey(rec), fields: Object.keys(patch) });
      } else {
        m.removed.splice(upperBound(m.removed, index), 0, index);
        report.removed.push({ index, ...naturalKey(rec) });
      }
    });
    return report;
  }

  /** The record as generated, before mutations. */
  private generate(day: number, index: number): SettlementWire {
    const core = this.core(day, index);
    if (core.exception === 'refund' || core.exception === 'chargeback')
      return this.debit(day, index, core.record, core.exception === 'refund');
    if (core.exception !== 'duplicate') return core.record;
    // Settled twice: the same gateway's record on the previous date, or its previous record the same day, which
    // is in another cycle when the gateway has more than one (with one cycle the key would repeat: previous date).
    const rng = new Rng(hash32(this.seed, day, index, 0xd0b1e));
    const n = this.gateways.length;
    const sameDay = index >= n && this.cycles(day, index % n) > 1 && rng.chance(0.5);
    const ref = this.core(sameDay ? day : day - 1, sameDay ? index - n : index);
    // Only a plain record is settled twice; otherwise this one stays a plain record of its own.
    if (ref.exception !== 'none') return core.record;
    return { ...ref.record, utr: core.record.utr, settlement_date: core.record.settlement_date };
  }

  /**
   * A refund or chargeback line: the batch's UTR and time, the sale's order, mode and order time. The sale is the
   * gateway's record at the same index 1-7 days back when that is a plain one, else this record's own draw (a sale
   * from before the sandbox's window). A refund is partial three times in ten; a chargeback takes the whole sale.
   */
  private debit(day: number, index: number, own: SettlementWire, refund: boolean): SettlementWire {
    const rng = new Rng(hash32(this.seed, day, index, 0x2ef0d));
    const earlier = this.core(day - rng.int(1, 7), index);
    const sale = earlier.exception === 'none' ? earlier.record : own;
    const back =
      refund && rng.chance(0.3) ? Math.max(100, Math.floor(sale.amount * (0.1 + 0.8 * rng.next()))) : sale.amount;
    const id = permute40(day * INDEX_SPACE + index, this.idKey ^ 0x2ef0)
      .toString(36)
      .toUpperCase()
      .padStart(8, '0');
    return {
      ...own,
      order_id: sale.order_id,
      pg_transaction_id: `${refund ? 'rfnd' : 'adj'}_${id}`,
      order_date: sale.order_date,
      order_status: refund ? 'refunded' : 'chargeback',
      pg_status: refund ? 'refunded' : 'chargeback',
      payment_mode: sale.payment_mode,
      amount: -back,
      mer_service_fee: 0,
      mer_service_tax: 0,
      merchant_subvention_amount: '0.00',
      cgst: '0.00',
      igst: '0.00',
      sgst: '0.00',
      settled_amount: -back,
      dispute_id: refund ? null : `dsp_${rng.base36(10)}`,
      description: refund
        ? `Refund of ${sale.pg_transaction_id}`
        : `Chargeback of ${sale.pg_transaction_id}: dispute lost, debited`,
    };
  }

  private core(day: number, index: number): { record: SettlementWire; exception: Exception } {
    const rng = new Rng(hash32(this.seed, day, index, 0x5e771e));
    const exception = pickException(rng.next());
    const mode = rng.weighted(MODES);
    const amount = randomAmount(rng);
    const fee = Math.round((amount * FEE_BPS[mode]!) / 10_000);
    const intraState = rng.chance(0.6);
    const half = Math.round((fee * 9) / 100);
    const igst = intraState ? 0 : Math.round((fee * 18) / 100);
    const cgst = intraState ? half : 0;
    const tax = cgst * 2 + igst;
    const subvention = mode === 'CC' && rng.chance(0.2) ? Math.round((amount * 50) / 10_000) : 0;
    const lagDays = rng.int(1, 3);
    const orderSeconds = rng.int(0, 86_399);
    rng.digits(12); // Still drawn, so the draws after it (the exception's fields) are the same for every batch layout
    const key = this.idKey;
    const serial = day * INDEX_SPACE + index;
    const gi = index % this.gateways.length;
    const cycle = Math.floor(index / this.gateways.length) % this.cycles(day, gi);
    const utr = this.batchArrivesPending(day, gi, cycle) ? '' : this.batchUtr(day, gi, cycle);
    const record: SettlementWire = {
      order_id: `ord_${permute40(serial, key).toString(36).toUpperCase().padStart(8, '0')}`,
      pg_transaction_id: `pay_${permute40(serial, key ^ 0x7a11)
        .toString(36)
        .toUpperCase()
        .padStart(8, '0')}`,
      order_date: istText(day - lagDays, orderSeconds),
      utr,
      settlement_date: this.batchTime(day, gi, cycle),
      order_status: 'success',
      pg_status: 'success',
      payment_mode: mode,
      amount,
      mer_service_fee: fee,
      mer_service_tax: tax,
      merchant_subvention_amount: rupeeText(subvention),
      cgst: rupeeText(cgst),
      igst: rupeeText(igst),
      sgst: rupeeText(cgst),
      settled_amount: amount - fee - tax + subvention,
      dispute_id: null,
      description: null,
      pg: this.gateways[gi]!,
    };
    applyException(record, exception, rng);
    return { record, exception };
  }
}

const dayTexts = new Map<number, string>();

/**
 * `YYYY-MM-DD HH:MM:SS` of a day number and a second of that (IST) day, without a Date per call:
 * this runs several times per record, a million records a benchmark.
 */
function istText(day: number, second: number): string {
  let date = dayTexts.get(day);
  if (date === undefined) {
    date = addDays('1970-01-01', day);
    if (dayTexts.size > 4096) dayTexts.clear();
    dayTexts.set(day, date);
  }
  const h = Math.floor(second / 3600);
  const m = Math.floor((second % 3600) / 60);
  const s = second % 60;
  return `${date} ${h < 10 ? '0' : ''}${h}:${m < 10 ? '0' : ''}${m}:${s < 10 ? '0' : ''}${s}`;
}

function naturalKey(r: SettlementWire) {
  return { pg: r.pg, pg_transaction_id: r.pg_transaction_id, settlement_date: r.settlement_date };
}

function pickException(u: number): Exception {
  let edge = 0;
  for (const [kind, share] of EXCEPTIONS) {
    edge += share;
    if (u < edge) return kind;
  }
  return 'none';
}

function applyException(r: SettlementWire, exception: Exception, rng: Rng): void {
  switch (exception) {
    case 'none':
    case 'duplicate':
    case 'refund':
    case 'chargeback':
      return;
    case 'dispute':
      r.dispute_id = `dsp_${rng.base36(10)}`;
      r.description = 'Chargeback raised by the issuing bank';
      return;
    case 'failed':
      Object.assign(r, {
        order_status: 'failed',
        pg_status: 'failed',
        mer_service_fee: 0,
        mer_service_tax: 0,
        cgst: '0.00',
        sgst: '0.00',
        igst: '0.00',
        merchant_subvention_amount: '0.00',
        settled_amount: 0,
        description: 'Payment failed at the bank; nothing settled',
      });
      return;
    case 'failedSettled':
      r.pg_status = 'failed';
      r.order_status = 'failed';
      return;
    case 'offByPaise':
      r.settled_amount += (rng.chance(0.5) ? 1 : -1) * rng.int(1, 9);
      return;
  }
}

/** Log-uniform from Rs 10 to Rs 50,000, a good share of round rupees, as shop baskets look. */
function randomAmount(rng: Rng): number {
  const rupees = Math.exp(Math.log(10) + rng.next() * (Math.log(50_000) - Math.log(10)));
  const whole = Math.floor(rupees);
  return rng.chance(0.4) ? whole * 100 : whole * 100 + rng.int(1, 99);
}

/** "12.05" from 1205 paise: shared/money's formatMinor without BigInt, for the hot path (values >= 0). */
function rupeeText(paise: number): string {
  const frac = paise % 100;
  return `${(paise - frac) / 100}.${frac < 10 ? '0' : ''}${frac}`;
}

function permuteKey(seed: number): number {
  return hash32(seed, 0x7e11);
}

/** Position of the k-th (0-based) survivor when the sorted positions in `removed` are gone. */
function kthSurvivor(k: number, removed: readonly number[]): number {
  let p = k;
  for (;;) {
    const next = k + upperBound(removed, p);
    if (next === p) return p;
    p = next;
  }
}

/** Number of elements <= value in a sorted list. */
function upperBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function binarySearch(sorted: readonly number[], value: number): number {
  const i = upperBound(sorted, value) - 1;
  return i >= 0 && sorted[i] === value ? i : -1;
}
