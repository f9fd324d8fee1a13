/**
 * Profiles, whether each has a secret, and the last connection test per profile. A secret passes through
 * `setSecret` on its way to main and is kept nowhere here.
 */
import { create } from 'zustand';
import type { IpcInput, IpcOutput, IpcResult } from '../../../shared/ipc/contract';
import { api, settle } from '../api';
import { useAppInfo } from '../app-info-store';
import { loaded, type Loadable } from '../loadable';

export type Profile = IpcOutput<'profiles.list'>['profiles'][number];
export type ProfileFields = IpcInput<'profiles.create'>;
export type CredentialStatus = IpcOutput<'credentials.status'>;
export type ConnectionTestResult = IpcOutput<'credentials.test'>;

interface SettingsStore {
  list: Loadable<IpcOutput<'profiles.list'>>;
  credentials: Partial<Record<string, Loadable<CredentialStatus>>>;
  tests: Partial<Record<string, Loadable<ConnectionTestResult>>>;
  load(): Promise<void>;
  create(fields: ProfileFields): Promise<IpcResult<Profile>>;
  update(id: string, fields: ProfileFields): Promise<IpcResult<Profile>>;
  remove(id: string): Promise<IpcResult<unknown>>;
  activate(id: string): Promise<IpcResult<Profile>>;
  setSecret(profileId: string, secret: string): Promise<IpcResult<CredentialStatus>>;
  deleteSecret(profileId: string): Promise<IpcResult<unknown>>;
  testConnection(profileId: string): Promise<void>;
}

export const useSettings = create<SettingsStore>()((set, get) => {
  const putCredentials = (id: string, value: Loadable<CredentialStatus>) =>
    set((s) => ({ credentials: { ...s.credentials, [id]: value } }));
  const putTest = (id: string, value: Loadable<ConnectionTestResult> | undefined) =>
    set((s) => ({ tests: { ...s.tests, [id]: value } }));

  async function loadCredentials(id: string): Promise<void> {
    putCredentials(id, loaded(await settle(() => api.credentials.status({ profileId: id }))));
  }

  /** After a change: the list, every secret status, and the status bar's active profile. */
  async function refresh(): Promise<void> {
    await Promise.all([get().load(), useAppInfo.getState().load()]);
  }

  /** Runs a change and refreshes after it worked; the caller shows the error of one that did not. */
  async function change<T>(call: () => Promise<IpcResult<T>>): Promise<IpcResult<T>> {
    const result = await settle(call);
    if (result.ok) await refresh();
    return result;
  }

  return {
    list: { status: 'loading' },
    credentials: {},
    tests: {},

    async load() {
      const list = loaded(await settle(() => api.profiles.list()));
      set({ list });
      if (list.status === 'ready') await Promise.all(list.value.profiles.map((p) => loadCredentials(p.id)));
    },
    create: (fields) => change(() => api.profiles.create(fields)),
    async update(id, fields) {
      const result = await change(() => api.profiles.update({ id, fields }));
      // A test of the old address or key says nothing about the new one.
      if (result.ok) putTest(id, undefined);
      return result;
    },
    remove: (id) => change(() => api.profiles.remove({ id })),
    activate: (id) => change(() => api.profiles.activate({ id })),

    async setSecret(profileId, secret) {
      const result = await settle(() => api.credentials.set({ profileId, secret }));
      if (result.ok) {
        putCredentials(profileId, { status: 'ready', value: result.value });
        putTest(profileId, undefined);
      }
      return result;
    },
    async deleteSecret(profileId) {
      const result = await settle(() => api.credentials.delete({ profileId }));
      if (result.ok) {
        putTest(profileId, undefined);
        await loadCredentials(profileId);
      }
      return result;
    },
    async testConnection(profileId) {
      putTest(profileId, { status: 'loading' });
      putTest(profileId, loaded(await settle(() => api.credentials.test({ profileId }))));
    },
  };
});
