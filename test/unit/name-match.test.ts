/** The name-mismatch rule for verified UPI holders (shared/name-match.ts), case by case. */
import { describe, expect, it } from 'vitest';
import { bigramSimilarity, namesResemble } from '../../shared/name-match';

describe('namesResemble', () => {
  it.each([
    ['Test Vendor Pvt Ltd', 'TEST VENDOR PRIVATE LIMITED'],
    ['Test Vendor Pvt Ltd', 'TVPL'],
    ['Ishaan Mehta', 'ISHAAN'],
    ['Ishaan Mehta', 'MEHTA ISHAAN'],
    ['Ishaan Mehta', 'ISHAN MEHTA'],
    ['Ishaan', 'Ishan'],
    ['M/s. Sharma & Sons', 'SHARMA AND SONS'],
    ['Dr. Anjali Rao', 'ANJALI'],
    ['Krishna Traders', 'KRISHNATRADERS'],
    ['Pvt Ltd', 'ANYONE'],
  ])('%j resembles %j', (payee, holder) => {
    expect(namesResemble(payee, holder)).toBe(true);
  });

  it.each([
    ['Test Vendor Pvt Ltd', 'ISHAAN'],
    ['Acme Supplies', 'RAVI KUMAR'],
    ['Ishaan Mehta', 'PRIYA SHAH'],
    ['Om Traders', 'AB ENTERPRISES'],
  ])('%j does not resemble %j', (payee, holder) => {
    expect(namesResemble(payee, holder)).toBe(false);
  });
});

describe('bigramSimilarity', () => {
  it('is 1 for the same pairs, 0 for none shared, and counts repeats once each', () => {
    expect(bigramSimilarity('ISHAAN', 'ISHAAN')).toBe(1);
    expect(bigramSimilarity('ABC', 'XYZ')).toBe(0);
    expect(bigramSimilarity('ISHAN', 'ISHAAN')).toBeCloseTo(8 / 9, 10);
    expect(bigramSimilarity('AAAA', 'AA')).toBeCloseTo(2 / 4, 10);
  });
});
