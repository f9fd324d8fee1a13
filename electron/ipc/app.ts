/** Handlers of the `app.*` channels. */
import type { ConnectivityTracker } from '../connectivity';
import type { ProfileStore } from '../profiles/profile-store';
import type { IpcHandlers } from './router';

export interface AppSources {
  appVersion: string;
  profiles: ProfileStore;
  connectivity: ConnectivityTracker;
}

export function createAppHandlers({
  appVersion,
  profiles,
  connectivity,
}: AppSources): Pick<IpcHandlers, 'app.info' | 'app.connectivity'> {
  return {
    'app.info': () => {
      const { id, name, environment, baseUrl } = profiles.active();
      return { appVersion, profile: { id, name, environment, baseUrl } };
    },
    'app.connectivity': () => connectivity.current(),
  };
}
