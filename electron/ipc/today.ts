/** Handlers of the `today.*` channels, for the active profile. */
import type { ProfileStore } from '../profiles/profile-store';
import type { Today } from '../today/today';
import type { IpcHandlers } from './router';

export function createTodayHandlers(
  today: Today,
  profiles: ProfileStore,
): Pick<IpcHandlers, 'today.summary' | 'today.refresh' | 'today.cancelRefresh' | 'today.setRefreshDays'> {
  const active = () => profiles.active().id;
  return {
    'today.summary': () => today.summary(active()),
    'today.refresh': () => today.refresh(active()),
    'today.cancelRefresh': ({ jobId }) => ({ cancelled: today.cancelRefresh(active(), jobId) }),
    'today.setRefreshDays': ({ days }) => ({ days: today.setRefreshDays(active(), days) }),
  };
}
