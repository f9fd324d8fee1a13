/** Handlers of the `profiles.*` channels. */
import type { ConnectivityTracker } from '../connectivity';
import type { Credentials } from '../profiles/credentials';
import type { ProfileStore } from '../profiles/profile-store';
import type { IpcHandlers } from './router';

type ProfileChannels =
  'profiles.list' | 'profiles.create' | 'profiles.update' | 'profiles.remove' | 'profiles.activate';

export function createProfileHandlers(
  profiles: ProfileStore,
  credentials: Credentials,
  connectivity: Pick<ConnectivityTracker, 'forget' | 'announce'>,
): Pick<IpcHandlers, ProfileChannels> {
  return {
    'profiles.list': () => ({ profiles: profiles.list(), activeId: profiles.active().id }),
    'profiles.create': (fields) => profiles.create(fields),
    'profiles.update': async ({ id, fields }) => {
      const { profile, secretRemoved } = await credentials.updateProfile(id, fields);
      connectivity.forget(id);
      return { ...profile, secretRemoved };
    },
    'profiles.remove': async ({ id }) => {
      await credentials.removeProfile(id);
      connectivity.forget(id);
      // Removing the active profile makes the built-in one active.
      connectivity.announce();
      return { ok: true as const };
    },
    'profiles.activate': ({ id }) => {
      const active = profiles.activate(id);
      connectivity.announce();
      return active;
    },
  };
}
