/** Handlers of the `profiles.*` channels. */
import type { Credentials } from '../profiles/credentials';
import type { ProfileStore } from '../profiles/profile-store';
import type { IpcHandlers } from './router';

type ProfileChannels =
  'profiles.list' | 'profiles.create' | 'profiles.update' | 'profiles.remove' | 'profiles.activate';

export function createProfileHandlers(
  profiles: ProfileStore,
  credentials: Credentials,
): Pick<IpcHandlers, ProfileChannels> {
  return {
    'profiles.list': () => ({ profiles: profiles.list(), activeId: profiles.active().id }),
    'profiles.create': (fields) => profiles.create(fields),
    'profiles.update': async ({ id, fields }) => {
      const { profile, secretRemoved } = await credentials.updateProfile(id, fields);
      return { ...profile, secretRemoved };
    },
    'profiles.remove': async ({ id }) => {
      await credentials.removeProfile(id);
      return { ok: true as const };
    },
    'profiles.activate': ({ id }) => profiles.activate(id),
  };
}
