/**
 * The settled-amount chart's axis tops out just above the tallest bar (the desk saw ₹20L bars under a ₹50L axis):
 * a round number of rupees on a fine 1–1.5–2–2.5–3–4–5–6–8 ladder, exact in paise.
 */
import { describe, expect, it } from 'vitest';
import { axisTop } from '../../renderer/src/settlements/SettledChart';

const LAKH = 100_000 * 100;

describe('the chart axis', () => {
  it('puts ₹20L bars under a ₹20L axis and ₹21L under ₹25L, never ₹50L', () => {
    expect(axisTop(20 * LAKH)).toBe(20 * LAKH);
    expect(axisTop(21 * LAKH)).toBe(25 * LAKH);
    expect(axisTop(20 * LAKH + 1)).toBe(25 * LAKH);
  });

  it('keeps the tallest bar above half the axis at every size, in whole rupees', () => {
    // From ₹1 (the smallest axis) up to ₹10 crore crore.
    for (let paise = 100; paise < 1e13; paise = Math.ceil(paise * 1.37)) {
      const top = axisTop(paise);
      expect(top).toBeGreaterThanOrEqual(paise);
      expect(paise / top).toBeGreaterThan(0.5);
      expect(top % 100).toBe(0);
    }
  });

  it('gives an empty chart a ₹1 axis', () => {
    expect(axisTop(0)).toBe(100);
  });
});
