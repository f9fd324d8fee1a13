/**
 * Settlements: records for a date, paged by offset / limit. Integer fields are paise already; the tax and
 * subvention fields are rupee decimal strings that must become exact paise.
 */
import { describe, expect, it } from 'vitest';
import { parse, refuse, request, requestIssues, edit, DROP } from './contract-helpers';

// ---- fixtures ---------------------------------------------------------------------------------------------

const RECORD_1 = {
  order_id: 'ord_8f3kq2',
  pg_transaction_id: 'pay_N1x2Y3z4',
  order_date: '2024-03-04 18:42:11',
  utr: 'AXISCN0123456789',
  settlement_date: '2024-03-05 10:00:00',
  order_status: 'success',
  pg_status: 'captured',
  payment_mode: 'UPI',
  amount: 100000,
  mer_service_fee: 1000,
  mer_service_tax: 180,
  merchant_subvention_amount: '0.00',
  cgst: '0.90',
  igst: '0.00',
  sgst: '0.90',
  settled_amount: 98820,
  dispute_id: null,
  description: null,
};
const RECORD_2 = {
  order_id: null,
  pg_transaction_id: 'pay_Zz9',
  order_date: '2024-03-04 09:01:02',
  utr: 'HDFCN5203948576',
  settlement_date: '2024-03-05 10:00:00',
  order_status: 'refunded',
  pg_status: 'refund',
  payment_mode: 'CC',
  amount: -50050,
  mer_service_fee: 0,
  mer_service_tax: 0,
  merchant_subvention_amount: '12.5',
  cgst: '0.00',
  igst: '1.80',
  sgst: '0.00',
  settled_amount: -50050,
  dispute_id: 'dsp_441',
  description: 'Refund adjusted against settlement',
};
const PAGE = { status: true, data: [RECORD_1, RECORD_2], is_last_page: false, request_id: 'req_st1' };

describe('settlement.fetch response', () => {
  it('normalizes every record exactly: rupee strings -> paise, integer fields unchanged, nulls kept', () => {
    expect(parse('settlement.fetch', PAGE)).toStrictEqual({
      data: [
        { ...RECORD_1, merchant_subvention_amount: 0, cgst: 90, igst: 0, sgst: 90 },
        { ...RECORD_2, merchant_subvention_amount: 1250, cgst: 0, igst: 180, sgst: 0 },
      ],
      is_last_page: false,
      request_id: 'req_st1',
    });
  });

  it('the last page and an empty page', () => {
    expect(parse('settlement.fetch', { status: true, data: [], is_last_page: true })).toStrictEqual({
      data: [],
      is_last_page: true,
      request_id: undefined,
    });
  });

  it('keeps unknown record fields (gateway_ref) and ignores unknown top-level fields', () => {
    const out = parse('settlement.fetch', { ...edit(PAGE, 'data.0.gateway_ref', 'GW-7781'), total_records: 2 });
    expect(out.data[0]).toMatchObject({ gateway_ref: 'GW-7781', cgst: 90 });
    expect(out).not.toHaveProperty('total_records');
  });

  it('a record may carry pg', () => {
    expect(parse('settlement.fetch', edit(PAGE, 'data.1.pg', 'payu')).data[1]).toMatchObject({ pg: 'payu' });
  });

  it.each([
    ['data.0.settled_amount', DROP, /^data\.0\.settled_amount: /],
    ['data.0.settled_amount', '98820', /^data\.0\.settled_amount: .*expected number/],
    ['data.1.amount', 10.5, /^data\.1\.amount: 10\.5 is not a whole number of minor units$/],
    ['data.0.cgst', 'nine', /^data\.0\.cgst: "nine" is not a decimal amount$/],
    ['data.0.sgst', '0.905', /^data\.0\.sgst: "0\.905" has more than 2 decimal places$/],
    ['data.0.order_date', '2024-03-04T13:12:11Z', /^data\.0\.order_date: expected YYYY-MM-DD HH:MM:SS$/],
    ['data.0.settlement_date', '2024-02-30 10:00:00', /^data\.0\.settlement_date: expected YYYY-MM-DD HH:MM:SS$/],
    ['data.0.order_id', DROP, /^data\.0\.order_id: /],
    ['data.0.dispute_id', DROP, /^data\.0\.dispute_id: /],
    ['data.0.pg_transaction_id', null, /^data\.0\.pg_transaction_id: /],
    ['is_last_page', 'false', /^is_last_page: /],
    ['is_last_page', DROP, /^is_last_page: /],
    ['data', DROP, /^data: /],
  ] as const)('%s = %s is refused and named', (path, value, message) => {
    expect(refuse('settlement.fetch', edit(PAGE, path, value))).toMatch(message);
  });

  it('a missing UTR is "" as the interface types it, and null or absent from a real service: all read as none', () => {
    for (const utr of ['', '   ', null, DROP]) {
      expect(parse('settlement.fetch', edit(PAGE, 'data.0.utr', utr)).data[0]!.utr, String(utr)).toBeNull();
    }
    expect(parse('settlement.fetch', PAGE).data[0]!.utr).toBe(RECORD_1.utr);
    expect(refuse('settlement.fetch', edit(PAGE, 'data.0.utr', 42))).toMatch(/^data\.0\.utr: /);
  });

  it('a JSON number in a decimal-string field is read exactly too', () => {
    expect(parse('settlement.fetch', edit(PAGE, 'data.0.cgst', 0.9)).data[0]!.cgst).toBe(90);
  });
});

describe('settlement.fetch request', () => {
  it('date must be a real YYYY-MM-DD date', () => {
    expect(request('settlement.fetch', { date: '2024-02-29' }).success).toBe(true);
    for (const date of ['2024-02-30', '2023-02-29', '2024-13-01', '2024-3-5', '05-03-2024', '2024-03-05 00:00:00']) {
      expect(requestIssues('settlement.fetch', { date }), date).toBe('date: expected a real date YYYY-MM-DD');
    }
    expect(requestIssues('settlement.fetch', {})).toMatch(/^date: /);
  });

  it('offset and limit as numbers or digit strings become strings', () => {
    expect(request('settlement.fetch', { date: '2024-03-05', offset: 0, limit: 500 })).toMatchObject({
      success: true,
      data: { date: '2024-03-05', offset: '0', limit: '500' },
    });
    expect(request('settlement.fetch', { date: '2024-03-05', pg: 'payu', offset: '100', limit: '50' })).toMatchObject({
      success: true,
      data: { pg: 'payu', offset: '100', limit: '50' },
    });
  });

  it('limit 0 fails; negative, fractional or non-digit offsets and limits fail', () => {
    expect(requestIssues('settlement.fetch', { date: '2024-03-05', limit: 0 })).toBe('limit: must be at least 1');
    expect(requestIssues('settlement.fetch', { date: '2024-03-05', limit: '0' })).toBe('limit: must be at least 1');
    expect(requestIssues('settlement.fetch', { date: '2024-03-05', offset: -1 })).toMatch(/^offset: /);
    expect(requestIssues('settlement.fetch', { date: '2024-03-05', offset: 1.5 })).toMatch(/^offset: /);
    expect(requestIssues('settlement.fetch', { date: '2024-03-05', limit: '10a' })).toMatch(/^limit: /);
    expect(requestIssues('settlement.fetch', { date: '2024-03-05', offset: '-5' })).toMatch(/^offset: /);
    expect(requestIssues('settlement.fetch', { date: '2024-03-05', pg: '' })).toBe('pg: must not be empty');
  });
});
