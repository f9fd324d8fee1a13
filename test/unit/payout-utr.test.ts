/** What the console says of a payout without a UTR: what is true for its status, never "not issued yet" of a failure. */
import { describe, expect, it } from 'vitest';
import { FAILED_TRANSFER_STATUSES, PENDING_TRANSFER_STATUSES, missingUtrText } from '../../shared/payouts';

describe('missingUtrText', () => {
  it.each(FAILED_TRANSFER_STATUSES)('says a %s transfer has none, and never "yet"', (status) => {
    const text = missingUtrText(status);
    expect(text).toMatch(/^None: the transfer (failed|was \w+)/);
    expect(text).not.toMatch(/yet/i);
  });
  it('says a failed transfer will never get one', () => {
    expect(missingUtrText('failed')).toBe('None: the transfer failed, so no UTR will be issued.');
  });
  it.each(PENDING_TRANSFER_STATUSES)('says a %s transfer has none yet', (status) => {
    expect(missingUtrText(status)).toBe('Not issued yet: the transfer is still on its way.');
  });
  it('says a successful transfer without one is missing it, and an unanswered check does not know', () => {
    expect(missingUtrText('success')).toBe(
      'None: the transfer succeeded but the gateway gave no UTR; ask the gateway for it.',
    );
    expect(missingUtrText(null)).toBe('Unknown until the gateway answers.');
    expect(missingUtrText('on_hold')).toBe('None given by the gateway.');
  });
});
