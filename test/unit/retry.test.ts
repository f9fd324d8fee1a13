import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, backoffDelay, parseRetryAfter, sleep } from '../../electron/api/retry';

describe('backoffDelay (full jitter)', () => {
  const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };

  it('spans 0 up to the exponential ceiling', () => {
    expect(backoffDelay(1, policy, () => 0)).toBe(0);
    expect(backoffDelay(1, policy, () => 0.999999)).toBe(99);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(200);
  });

  it('never exceeds the cap', () => {
    expect(backoffDelay(30, policy, () => 0.999999)).toBeLessThan(1000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
  });
});

describe('sleep', () => {
  it('is cut short by an abort', async () => {
    const ac = new AbortController();
    const p = sleep(10_000, ac.signal);
    ac.abort(new Error('stop'));
    await expect(p).rejects.toThrow('stop');
  });
});
