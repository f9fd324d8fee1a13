/** Lists of payout ids as desks paste them: any separators, duplicates kept once, what is not an id listed with why. */
import { describe, expect, it } from 'vitest';
import { looksLikeIdList, parsePayoutIds, payoutCheckRequest } from '../../shared/payout-checks';

describe('parsePayoutIds', () => {
  it('reads the pasted "TRF… TRF… TRF…" as three ids, not one', () => {
    expect(parsePayoutIds('TRF100000000001 TRF100000000002 TRF100000000003')).toEqual({
      ids: ['TRF100000000001', 'TRF100000000002', 'TRF100000000003'],
      duplicates: [],
      invalid: [],
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
    });
  });

  it('takes ids out of the quotes a spreadsheet or CSV puts around them', () => {
    expect(parsePayoutIds('"TRF1","TRF2"\n\u201cTRF3\u201d').ids).toEqual(['TRF1', 'TRF2', 'TRF3']);
  });

  it('lists what is not an id with the reason, and still reads the good ones', () => {
    const long = 'X'.repeat(65);
    const r = parsePayoutIds(`TRF1 TRF#2 ${long} <b>TRF3</b> TRF4`);
    expect(r.ids).toEqual(['TRF1', 'TRF4']);
    expect(r.invalid).toEqual([
      { text: 'TRF#2', reason: 'has characters a payout id does not: #' },
      { text: `${'X'.repeat(40)}…`, reason: 'longer than 64 characters' },
      { text: '<b>TRF3</b>', reason: 'has characters a payout id does not: < >' },
    ]);
  });

  it('reads an empty paste as nothing', () => {
    expect(parsePayoutIds(' \n\t,; ')).toEqual({ ids: [], duplicates: [], invalid: [] });
  });
});

describe('looksLikeIdList', () => {
  it('is true for more than one piece or a repeated id, false for one id with spaces around it', () => {
    expect(looksLikeIdList('  TRF1  ')).toBe(false);
    expect(looksLikeIdList('TRF1 TRF2')).toBe(true);
    expect(looksLikeIdList('TRF1,TRF1')).toBe(true);
    expect(looksLikeIdList('TRF1 bad#')).toBe(true);
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
