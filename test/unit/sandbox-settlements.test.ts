/** The lazy settlement generator: consistency rule, exception mix, determinism, paging, mutations. */
import { describe, expect, it } from 'vitest';
import { SettlementSource, type SettlementWire } from '../../electron/sandbox/data/settlements';
import { parseDecimalToMinor } from '../../shared/money';
import { addDays } from '../../shared/time';

const GATEWAYS = ['razorpay', 'cashfree', 'payu', 'easebuzz'];
const DATE = '2025-01-15';

function all(src: SettlementSource, date: string, pg?: string, limit = 1000): SettlementWire[] {
  const out: SettlementWire[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = src.page(date, pg, offset, limit);
    out.push(...page.data);
    if (page.isLastPage) return out;
  }
}

const paise = (text: string) => parseDecimalToMinor(text);
const ruleGap = (r: SettlementWire) =>
  r.amount - r.mer_service_fee - r.mer_service_tax + paise(r.merchant_subvention_amount) - r.settled_amount;

describe('settlement records', () => {
  const src = new SettlementSource(11, 20_000, GATEWAYS);
  const records = all(src, DATE);

  it('obey the tax split on every record: tax = cgst + sgst + igst, intra-state cgst = sgst, inter-state igst only', () => {
    expect(records).toHaveLength(20_000);
    const split = (r: SettlementWire) => [paise(r.cgst), paise(r.sgst), paise(r.igst)] as const;
    const broken = records.filter((r) => {
      const [c, s, i] = split(r);
      return c + s + i !== r.mer_service_tax || (i === 0 ? c !== s : c + s !== 0);
    });
    expect(broken).toEqual([]);
    const intra = records.filter((r) => split(r)[0] > 0).length;
    expect(intra / records.length).toBeGreaterThan(0.5);
  });

  it('charge fees of 1.5-2% and tax of 18% of the fee on settled records', () => {
    const charged = records.filter((x) => x.mer_service_fee > 0);
    // Only a failed payment, a refund or a chargeback carries no fee.
    const unchargedSales = records.filter((r) => r.mer_service_fee === 0 && r.amount > 0 && r.pg_status !== 'failed');
    expect(unchargedSales).toEqual([]);
    expect(charged.length).toBeGreaterThan(records.length * 0.95);
    const broken = charged.filter(
      (r) =>
        r.mer_service_fee < Math.floor(r.amount * 0.015) ||
        r.mer_service_fee > Math.ceil(r.amount * 0.02) ||
        Math.abs(r.mer_service_tax - r.mer_service_fee * 0.18) > 1,
    );
    expect(broken).toEqual([]);
  });

  it('satisfy settled = amount - fee - tax + subvention except a small share off by a few paise', () => {
    const ok = records.filter((r) => r.pg_status === 'success');
    const off = ok.filter((r) => ruleGap(r) !== 0);
    expect(off.length).toBeGreaterThan(0);
    expect(off.length / records.length).toBeLessThan(0.01);
    for (const r of off) expect(Math.abs(ruleGap(r))).toBeLessThanOrEqual(9);
    expect(records.some((r) => paise(r.merchant_subvention_amount) > 0 && ruleGap(r) === 0)).toBe(true);
  });

  it('hold a realistic exception mix of about 2-4%', () => {
    const share = (pred: (r: SettlementWire) => boolean) => records.filter(pred).length / records.length;
    const disputes = share((r) => r.dispute_id !== null && r.amount > 0);
    const failed = share((r) => r.pg_status === 'failed' && r.settled_amount === 0);
    const failedSettled = share((r) => r.pg_status === 'failed' && r.settled_amount > 0);
    const off = share((r) => r.pg_status === 'success' && ruleGap(r) !== 0);
    const ids = new Map<string, number>();
    for (const r of records) ids.set(r.pg_transaction_id, (ids.get(r.pg_transaction_id) ?? 0) + 1);
    const twiceToday = [...ids.values()].filter((n) => n > 1).length / records.length;
    const prevDay = new Set(all(src, '2025-01-14').map((r) => r.pg_transaction_id));
    const fromYesterday = share((r) => prevDay.has(r.pg_transaction_id));
    for (const s of [disputes, failed, failedSettled, off, twiceToday, fromYesterday]) expect(s).toBeGreaterThan(0);
    const total = disputes + failed + failedSettled + off + twiceToday + fromYesterday;
    expect(total).toBeGreaterThan(0.015);
    expect(total).toBeLessThan(0.04);
  });

  it('settle refunds and chargebacks as negative lines of earlier sales, with no fee, tax or subvention', () => {
    const debits = records.filter((r) => r.amount < 0);
    const refunds = debits.filter((r) => r.dispute_id === null);
    const chargebacks = debits.filter((r) => r.dispute_id !== null);
    expect(refunds.length / records.length).toBeGreaterThan(0.01);
    expect(refunds.length / records.length).toBeLessThan(0.03);
    expect(chargebacks.length).toBeGreaterThan(0);
    expect(chargebacks.length / records.length).toBeLessThan(0.005);
    for (const r of debits) {
      expect([r.mer_service_fee, r.mer_service_tax, r.settled_amount]).toEqual([0, 0, r.amount]);
      expect([r.cgst, r.sgst, r.igst, r.merchant_subvention_amount]).toEqual(['0.00', '0.00', '0.00', '0.00']);
    }
    for (const r of refunds)
      expect([r.order_status, r.pg_status, r.pg_transaction_id]).toEqual([
        'refunded',
        'refunded',
        expect.stringMatching(/^rfnd_/),
      ]);
    for (const r of chargebacks) {
      expect([r.order_status, r.pg_status, r.pg_transaction_id]).toEqual([
        'chargeback',
        'chargeback',
        expect.stringMatching(/^adj_/),
      ]);
      expect(r.dispute_id).toMatch(/^dsp_/);
    }
    // Each names the sale it takes back; most of those are sales of the same gateway in the week before.
    const earlier = new Map<string, SettlementWire>();
    for (let d = 1; d <= 7; d++) for (const r of all(src, addDays(DATE, -d))) earlier.set(r.pg_transaction_id, r);
    const found = debits.flatMap((r) => {
      const sale = earlier.get(/^(?:Refund|Chargeback) of (pay_\w+)/.exec(r.description ?? '')?.[1] ?? '');
      return sale ? [[r, sale] as const] : [];
    });
    expect(found.length).toBeGreaterThan(debits.length * 0.8);
    for (const [r, sale] of found) {
      expect([r.pg, r.order_id, r.order_date, r.payment_mode]).toEqual([
        sale.pg,
        sale.order_id,
        sale.order_date,
        sale.payment_mode,
      ]);
      expect(-r.amount).toBeLessThanOrEqual(sale.amount);
      if (r.dispute_id !== null) expect(-r.amount).toBe(sale.amount);
    }
    expect(found.some(([r, sale]) => -r.amount < sale.amount)).toBe(true);
  });

  it('keep gateway + transaction id + settlement time unique, even for same-day duplicates', () => {
    const keys = new Set(records.map((r) => `${r.pg}|${r.pg_transaction_id}|${r.settlement_date}`));
    expect(keys.size).toBe(records.length);
    const firstSeen = new Map<string, SettlementWire>();
    const twins: [SettlementWire, SettlementWire][] = [];
    for (const r of records) {
      const seen = firstSeen.get(r.pg_transaction_id);
      if (seen) twins.push([seen, r]);
      else firstSeen.set(r.pg_transaction_id, r);
    }
    expect(twins.length).toBeGreaterThan(0);
    for (const [original, t] of twins) {
      expect({ ...t, utr: null, settlement_date: '' }).toEqual({ ...original, utr: null, settlement_date: '' });
      expect(t.utr).not.toBe(original.utr);
    }
  });

  it('write identifiers as text: 12-digit UTRs (some with leading zeros), order ids, payment modes', () => {
    const utrs = records.map((r) => r.utr).filter((u): u is string => u !== '');
    for (const u of utrs) expect(u).toMatch(/^\d{12}$/);
    const batchUtrs = Array.from({ length: 60 }, (_, d) =>
      [0, 1, 2, 3].map((g) => src.batchUtr(20_000 + d, g, 0)),
    ).flat();
    expect(batchUtrs.some((u) => u.startsWith('0'))).toBe(true);
    expect(new Set(records.map((r) => r.payment_mode))).toEqual(new Set(['UPI', 'NB', 'CC', 'DC', 'WALLET']));
    for (const r of records.slice(0, 500)) {
      expect(r.order_id).toMatch(/^ord_[0-9A-Z]{8}$/);
      expect(r.settlement_date.startsWith(DATE)).toBe(true);
      expect(r.order_date < r.settlement_date).toBe(true);
      expect(r.pg).toBe(GATEWAYS[records.indexOf(r) % GATEWAYS.length]);
    }
  });

  it('are deterministic by seed', () => {
    expect(new SettlementSource(11, 20_000, GATEWAYS).page(DATE, undefined, 5000, 200)).toEqual(
      src.page(DATE, undefined, 5000, 200),
    );
    expect(new SettlementSource(12, 20_000, GATEWAYS).page(DATE, undefined, 0, 50).data).not.toEqual(
      src.page(DATE, undefined, 0, 50).data,
    );
  });
});

describe('settlement paging', () => {
  it('filters by gateway as a stride over the same records, in the same order', () => {
    const src = new SettlementSource(5, 1003, GATEWAYS);
    const everything = all(src, DATE, undefined, 97);
    for (const pg of GATEWAYS) expect(all(src, DATE, pg, 33)).toEqual(everything.filter((r) => r.pg === pg));
    expect(src.page(DATE, 'nosuch', 0, 10)).toEqual({ data: [], isLastPage: true });
    expect(src.page(DATE, undefined, 1003, 10)).toEqual({ data: [], isLastPage: true });
    expect(src.page(DATE, undefined, 1000, 3).isLastPage).toBe(true);
    expect(src.page(DATE, undefined, 999, 3).isLastPage).toBe(false);
  });

  it('after a mutation, pages hold every surviving record exactly once, changed ones changed', () => {
    const src = new SettlementSource(5, 2000, GATEWAYS);
    const before = all(src, DATE, undefined, 150);
    const report = src.mutate(DATE, 20, 15);
    expect(report.changed).toHaveLength(20);
    expect(report.removed).toHaveLength(15);
    const after = all(src, DATE, undefined, 150);
    const gone = new Set(report.removed.map((r) => r.index));
    expect(after).toHaveLength(before.length - 15);
    const expected = before.filter((_, i) => !gone.has(i));
    const changed = new Set(report.changed.map((c) => c.index));
    expected.forEach((rec, k) => {
      const index = before.indexOf(rec);
      if (changed.has(index)) expect(after[k]).not.toEqual(rec);
      else expect(after[k]).toEqual(rec);
      expect(after[k]!.pg_transaction_id).toBe(rec.pg_transaction_id);
    });
    for (const pg of GATEWAYS) expect(all(src, DATE, pg, 7)).toEqual(after.filter((r) => r.pg === pg));
    expect(src.record(DATE, report.removed[0]!.index)).toBeUndefined();
  });

  it('mutations are deterministic from the seed', () => {
    const a = new SettlementSource(9, 500, GATEWAYS);
    const b = new SettlementSource(9, 500, GATEWAYS);
    expect(a.mutate(DATE, 5, 3)).toEqual(b.mutate(DATE, 5, 3));
    expect(a.mutate(DATE, 5, 3)).toEqual(b.mutate(DATE, 5, 3));
  });

  // How fast a page of a big day is served is `npm run bench -- --only sandbox`; here, that it is right.
  it("serves any page of 1,000,000 records a day, the last and a gateway's included", () => {
    const big = new SettlementSource(1, 1_000_000, GATEWAYS);
    const last = big.page(DATE, undefined, 999_000, 1000);
    const mid = big.page(DATE, 'payu', 123_456, 1000);
    expect(last.data).toHaveLength(1000);
    expect(last.isLastPage).toBe(true);
    expect(mid.data.every((r) => r.pg === 'payu')).toBe(true);
    expect(new Set(last.data.map((r) => r.pg_transaction_id)).size).toBeGreaterThan(995);
  });

  it('refuses more than 1,000,000 a day (transaction ids are unique below 2^20)', () => {
    expect(() => new SettlementSource(1, 1_000_001, GATEWAYS)).toThrow(RangeError);
  });
});

describe('settlement batches', () => {
  const src = new SettlementSource(7, 2_000, GATEWAYS);
  const dates = ['2025-03-01', '2025-03-02', '2025-03-03', '2025-03-04', '2025-03-05', '2025-03-06'];

  it('group a date into 1-3 cycles per gateway, each one UTR and one settlement time shared by its records', () => {
    for (const date of dates) {
      const records = all(src, date);
      const byBatch = new Map<string, Set<string>>();
      records.forEach((r, i) => {
        const b = src.batchOf(date, i);
        expect(r.pg).toBe(GATEWAYS[b.gatewayIndex]);
        const key = `${b.gatewayIndex}/${b.cycle}`;
        byBatch.set(key, (byBatch.get(key) ?? new Set()).add(`${r.utr}|${r.settlement_date}`));
      });
      for (const shapes of byBatch.values()) expect(shapes.size).toBe(1);
      expect(byBatch.size).toBeGreaterThanOrEqual(GATEWAYS.length);
      expect(byBatch.size).toBeLessThanOrEqual(GATEWAYS.length * 3);
      expect(new Set(records.map((r) => `${r.pg}|${r.utr}|${r.settlement_date}`)).size).toBe(byBatch.size);
    }
  });

  it('leave some batches UTR-pending until filled, then show the UTR the bank knows', () => {
    const source = new SettlementSource(3, 400, GATEWAYS);
    const pending: { date: string; pg: string; settlement_date: string }[] = [];
    for (let d = 0; d < 40 && pending.length === 0; d++) {
      const date = `2025-04-${String(1 + (d % 28)).padStart(2, '0')}`;
      const recs = all(source, date).filter((r) => r.utr === '');
      for (const r of recs) pending.push({ date, pg: r.pg, settlement_date: r.settlement_date });
    }
    expect(pending.length).toBeGreaterThan(0);
    const { date, pg, settlement_date } = pending[0]!;
    const filled = source.fillPendingUtrs(date);
    const mine = filled.find((f) => f.pg === pg && f.settlement_date === settlement_date)!;
    expect(mine.utr).toMatch(/^\d{12}$/);
    const after = all(source, date).filter((r) => r.pg === pg && r.settlement_date === settlement_date);
    expect(after.length).toBeGreaterThan(0);
    for (const r of after) expect(r.utr).toBe(mine.utr);
    expect(source.fillPendingUtrs(date)).toEqual([]);
  });
});
