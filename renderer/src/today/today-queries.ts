/**
 * The Today screen's reads and actions: the summary (every panel, from the cache and the desk), "Refresh all" and its
 * cancel, and the refresh window. A `todayRefresh` event (query/main-events.ts) makes the summary stale as each part
 * ends; the parts' own events (a sync's end, a watch round) make their screens' reads stale as they always do.
 */
import { useIpcMutation, useIpcQuery } from '../query/ipc-query';

export const useTodaySummary = () => useIpcQuery('today.summary', {});
/** The balance refresh changes Accounts; the sync and the watch round announce their own changes. */
export const useRefreshAll = () => useIpcMutation('today.refresh', { invalidates: ['today.', 'accounts.'] });
export const useCancelRefresh = () => useIpcMutation('today.cancelRefresh', { invalidates: ['today.'] });
export const useSetRefreshDays = () => useIpcMutation('today.setRefreshDays', { invalidates: ['today.'] });
