/**
 * Where a person reads a settlement change, the console's own words and formats: a field's label, not its column
 * name ("UTR (UTR replaced)", not "utr (UTR replaced)"), and money with ₹ and en-IN grouping.
 */
import { describe, expect, it } from 'vitest';
import { fieldText } from '../../renderer/src/settlements/ChangesDialog';

describe('what a person reads', () => {
  it('names a changed field by its label and shows money as money', () => {
    expect(fieldText({ field: 'utr', meaning: 'utr_replaced', old: '111', new: '222' })).toBe(
      'UTR (UTR replaced): 111 → 222',
    );
    expect(fieldText({ field: 'dispute_id', meaning: 'dispute_opened', old: null, new: 'D1' })).toBe(
      'Dispute ID (dispute opened): none → D1',
    );
    expect(fieldText({ field: 'settled_amount', meaning: 'other', old: 260621, new: 123456789 })).toBe(
      'Settled amount (changed): ₹2,606.21 → ₹12,34,567.89',
    );
  });
});
