/** The watch list's news in one sentence: what the status bar and the OS notification say. */
import { describe, expect, it } from 'vitest';
import { watchNoticeText, type WatchNotice } from '../../shared/payout-watch';

const status = (payoutId: string, from: string | null, to: string | null): WatchNotice => ({
  kind: 'status',
  payoutId,
  at: '2026-06-15T06:30:00.000Z',
  from,
  to,
  expectedBy: null,
});
const overdue = (payoutId: string): WatchNotice => ({
  kind: 'overdue',
  payoutId,
  at: '2026-06-15T06:30:00.000Z',
  from: null,
  to: null,
  expectedBy: '2026-06-15T06:00:00.000Z',
});

describe('watchNoticeText', () => {
  it('says nothing for a quiet round', () => {
    expect(watchNoticeText([])).toBeNull();
  });
  it('names one or two notices in full', () => {
    expect(watchNoticeText([status('TRF1', 'pending', 'success')])).toBe('TRF1 is now success (was pending).');
    expect(watchNoticeText([overdue('TRF2'), status('TRF3', null, null)])).toBe(
      'TRF2 is overdue; TRF3 is now unknown (was unknown).',
    );
  });
  it('names the first of more and counts the rest', () => {
    expect(watchNoticeText([overdue('TRF4'), overdue('TRF5'), status('TRF6', 'pending', 'failed')])).toBe(
      'TRF4 is overdue and 2 more notices.',
    );
  });
});
