import { watchNoticeText } from '../../../shared/payout-watch';
import { useWatchState } from './payouts-queries';

/**
 * The watch list's news in the status bar, on every screen: what its last round noticed (a status change, a payout
 * gone overdue), else how many watched payouts are overdue; nothing when all is quiet.
 */
export function WatchIndicator() {
  const state = useWatchState();
  const w = state.data;
  if (!w) return null;
  const news = watchNoticeText(w.fresh);
  const text =
    news ?? (w.overdue > 0 ? `${w.overdue} watched ${w.overdue === 1 ? 'payout is' : 'payouts are'} overdue` : null);
  if (text === null) return null;
  return (
    <span
      className={`watch-indicator${w.overdue > 0 ? ' watch-overdue' : ''}`}
      role="status"
      data-testid="watch-news"
      title={text}
    >
      Watch list: {text}
    </span>
  );
}
