/** Handlers of the `credentials.*` channels: the secret goes in, only whether it exists comes out. */
import type { Credentials } from '../profiles/credentials';
import type { IpcHandlers } from './router';

type CredentialChannels = 'credentials.status' | 'credentials.set' | 'credentials.delete' | 'credentials.test';

export function createCredentialHandlers(credentials: Credentials): Pick<IpcHandlers, CredentialChannels> {
  return {
    'credentials.status': ({ profileId }) => credentials.status(profileId),
    'credentials.set': async ({ profileId, secret }) => {
      await credentials.set(profileId, secret);
      return credentials.status(profileId);
    },
    'credentials.delete': async ({ profileId }) => ({ deleted: await credentials.remove(profileId) }),
    'credentials.test': ({ profileId }) => credentials.testConnection(profileId),
  };
}
