/** Lists of payout ids as desks paste them: any separators, duplicates kept once, what is not an id listed with why. */
import { describe, expect, it } from 'vitest';
import { looksLikeIdList, parsePayoutIds, payoutCheckRequest } from '../../shared/payout-checks';

describe('parsePayoutIds', () => {
  it('reads the pasted "TRF… TRF… TRF…" as three ids, not one', () => {
    expect(parsePayoutIds('TRF100000000001 TRF100000000002 TRF100000000003')).toEqual({
      ids: ['TRF100000000001', 'TRF100000000002', 'TRF100000000003'],
      duplicates: [],
      invalid: [],
      questionable: [],
    });
  });

  it('splits on spaces, commas, semicolons, tabs, new lines (CRLF too), pipes and no-break spaces', () => {
    const text = 'A1,A2;A3\tA4\nA5\r\nA6 | A7\u00a0A8 ,, ;\n\n';
    expect(parsePayoutIds(text).ids).toEqual(['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8']);
  });

  it('keeps the first of each duplicate, in the order given, and names the duplicates once', () => {
    expect(parsePayoutIds('B2 B1 B2 B3 B1 B2')).toEqual({
      ids: ['B2', 'B1', 'B3'],
      duplicates: ['B2', 'B1'],
      invalid: [],
      questionable: [],
    });
  });

  it('takes ids out of the quotes a spreadsheet or CSV puts around them', () => {
    expect(parsePayoutIds('"TRF100000000001","pout_00000000000002"\n\u201cTRF100000000003\u201d').ids).toEqual([
      'TRF100000000001',
      'pout_00000000000002',
      'TRF100000000003',
    ]);
  });

  it('lists what is not an id with the reason, and still reads the good ones', () => {
    const long = 'X'.repeat(65);
    const r = parsePayoutIds(`TRF100000000001 TRF#2 ${long} <b>TRF3</b> TRF100000000004`);
    expect(r.ids).toEqual(['TRF100000000001', 'TRF100000000004']);
    expect(r.invalid).toEqual([
      { text: 'TRF#2', reason: 'has characters a payout id does not: #' },
      { text: `${'X'.repeat(40)}…`, reason: 'is longer than 64 characters' },
      { text: '<b>TRF3</b>', reason: 'has characters a payout id does not: < >' },
    ]);
  });

  it('reads an empty paste as nothing', () => {
    expect(parsePayoutIds(' \n\t,; ')).toEqual({ ids: [], duplicates: [], invalid: [], questionable: [] });
  });

  it('holds back what does not look like a payout id, with why, before anything is sent', () => {
    const digits23 = '12345678901234567890123';
    const long44 = 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V2';
    const r = parsePayoutIds(`hello world TRF-1234 ${digits23} ${long44} TRF100000000009 pout_Jx8bV2aQyqM3dL 7f3a-91`);
    expect(r.ids).toEqual(['TRF100000000009', 'pout_Jx8bV2aQyqM3dL', '7f3a-91']);
    expect(r.invalid).toEqual([]);
    expect(r.questionable).toEqual([
      { text: 'hello', reason: 'has no digits: a word, not a payout id' },
      { text: 'world', reason: 'has no digits: a word, not a payout id' },
      { text: 'TRF-1234', reason: "starts like the service's payout ids but is not TRF and 12 digits" },
      { text: digits23, reason: 'is only digits: a UTR, an account number or an amount, not a payout id' },
      { text: long44, reason: "is longer than the 40 characters of any gateway's payout id" },
    ]);
  });
});

describe('looksLikeIdList', () => {
  it('is true for more than one piece or a repeated id, false for one id with spaces around it', () => {
    expect(looksLikeIdList('  TRF1  ')).toBe(false);
    expect(looksLikeIdList('TRF1 TRF2')).toBe(true);
    expect(looksLikeIdList('TRF1,TRF1')).toBe(true);
    expect(looksLikeIdList('TRF1 bad#')).toBe(true);
    expect(looksLikeIdList('TRF100000000001 hello')).toBe(true);
  });
});

describe('payoutCheckRequest', () => {
  it('takes 1 to 2,000 ids and a mode, and refuses anything else', () => {
    expect(payoutCheckRequest.safeParse({ ids: ['A'], mode: 'advance' }).success).toBe(true);
    expect(payoutCheckRequest.safeParse({ ids: [], mode: 'normal' }).success).toBe(false);
    expect(payoutCheckRequest.safeParse({ ids: Array(2001).fill('A'), mode: 'normal' }).success).toBe(false);
    expect(payoutCheckRequest.safeParse({ ids: ['A B'], mode: 'normal' }).success).toBe(false);
    expect(payoutCheckRequest.safeParse({ ids: ['A'], mode: 'hard' }).success).toBe(false);
  });
});
