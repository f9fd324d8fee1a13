import { watchNoticeText } from '../../../shared/payout-watch';
import { useWatchState } from './payouts-queries';

/**
 * The watch list's news for the status bar, on every screen: what its last round noticed (a status change, a payout
 * gone overdue), else how many watched payouts are overdue; nothing when all is quiet.
 */
export function useWatchAlert(): { text: string; overdue: boolean } | null {
  const w = useWatchState().data;
  if (!w) return null;
  const news = watchNoticeText(w.fresh);
  const text =
    news ?? (w.overdue > 0 ? `${w.overdue} watched ${w.overdue === 1 ? 'payout is' : 'payouts are'} overdue` : null);
  return text === null ? null : { text: `Watch list: ${text}`, overdue: w.overdue > 0 };
}
