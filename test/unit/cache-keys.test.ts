/** Row ids, cursors, search patterns, exact sums and the record <-> row mapping of the cache. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CursorError, containsPattern, decodeCursor, encodeCursor } from '../../electron/cache/cursor';
import { PER_DAY, dayNumber, idRange } from '../../electron/cache/settlement-ids';
import { FIELD_COLUMNS, fieldValues, flagsOf, ruleBit } from '../../electron/cache/settlement-rows';
import { exactNumber } from '../../electron/cache/statements';
import { settlementRecord } from '../../shared/api/settlements';
import { RULE_IDS } from '../../shared/reconciliation';
import { wireRecord } from '../support/wire-record';

describe('settlement ids', () => {
  it('give each date its own block, in date order', () => {
    expect(dayNumber('1970-01-02')).toBe(1);
    const a = idRange('2025-01-15', '2025-01-15');
    const b = idRange('2025-01-16', '2025-01-16');
    expect(a.hi - a.lo + 1).toBe(PER_DAY);
    expect(b.lo).toBe(a.hi + 1);
    expect(idRange('2025-01-15', '2025-01-16')).toEqual({ lo: a.lo, hi: b.hi });
    expect(Number.isSafeInteger(idRange('2999-12-31', '2999-12-31').hi)).toBe(true);
  });

  it('refuse a date that is not one', () => {
    expect(() => dayNumber('2025-02-30')).toThrow(RangeError);
    expect(() => dayNumber('1969-12-31')).toThrow(RangeError);
  });
});

describe('cursors', () => {
  const shape = z.tuple([z.string(), z.number()]);

  it('round-trip as opaque URL-safe text', () => {
    const c = encodeCursor(['amount', 12]);
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(c, shape)).toEqual(['amount', 12]);
  });

  it('refuse anything else with a sentence', () => {
    for (const bad of ['%%%', encodeCursor([1, 2]), Buffer.from('{').toString('base64url')]) {
      expect(() => decodeCursor(bad, shape)).toThrow(CursorError);
    }
  });

  it('search patterns take LIKE wildcards literally', () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});

describe('exact sums', () => {
  it('pass safe integers, refuse what a double would round', () => {
    expect(exactNumber(null, 'x')).toBe(0);
    expect(exactNumber(BigInt(Number.MAX_SAFE_INTEGER), 'x')).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => exactNumber(BigInt(Number.MAX_SAFE_INTEGER) + 1n, 'total amount')).toThrow(
      /total amount is too large/,
    );
  });
});

describe('rows', () => {
  const record = settlementRecord.parse({ ...wireRecord, utr: undefined, batch_ref: 'B-7' });

  it('keep every field in column order, missing UTR as null, unknown fields as JSON', () => {
    const values = fieldValues(record);
    expect(values).toHaveLength(FIELD_COLUMNS.length);
    expect(values[FIELD_COLUMNS.indexOf('utr')]).toBeNull();
    expect(values[FIELD_COLUMNS.indexOf('cgst')]).toBe(14);
    expect(values[FIELD_COLUMNS.indexOf('extra')]).toBe('{"batch_ref":"B-7"}');
  });

  it('flag one bit per rule', () => {
    expect(new Set(RULE_IDS.map(ruleBit)).size).toBe(RULE_IDS.length);
    expect(
      flagsOf([
        { rule: 'missing_utr', values: {} },
        { rule: 'dispute_open', values: {} },
      ]),
    ).toBe(ruleBit('missing_utr') | ruleBit('dispute_open'));
  });
});
