/** Handlers of the `app.*` channels. */
import type { ActiveProfile } from '../../shared/ipc/app';
import type { IpcHandlers } from './router';

export interface AppInfoSources {
  appVersion: string;
  /** Read on every call: the active profile changes when the user switches it. */
  activeProfile: () => ActiveProfile;
}

export function createAppHandlers(sources: AppInfoSources): Pick<IpcHandlers, 'app.info'> {
  return {
    'app.info': () => ({ appVersion: sources.appVersion, profile: sources.activeProfile() }),
  };
}
