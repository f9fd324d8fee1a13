/**
 * The console's core, with no Electron in it: profiles, credentials, connectivity, events and the IPC router.
 * Electron's main process and the browser test harness both build it here and register the same router, so
 * what the tests drive is what the app runs.
 */
import { join } from 'node:path';
import type { Transport } from './api/transport';
import { openCache, type Cache } from './cache/database';
import { createConnectivity } from './connectivity';
import type { Logger, Redactor } from './log';
import { createAppHandlers } from './ipc/app';
import { createCredentialHandlers } from './ipc/credentials';
import { createEventBus } from './ipc/events';
import { createProfileHandlers } from './ipc/profiles';
import { createSyncHandlers } from './ipc/sync';
import { createIpcRouter } from './ipc/router';
import { createCredentials } from './profiles/credentials';
import { createProfileStore } from './profiles/profile-store';
import { createSyncJobs } from './sync/jobs';
import type { SecretStore } from './vault/secret-store';

export interface CoreOptions {
  appVersion: string;
  /** The app's data folder: settings and (later) the caches live here. */
  dataDir: string;
  vault: SecretStore;
  /** The embedded sandbox the built-in profile points at, with its own secret; null for none. */
  sandbox: { url: string; key: string; secret: string } | null;
  log: Logger;
  /** Learns every secret the core handles, so the log's redaction step knows it. */
  redactor: Redactor;
  transport?: Transport;
  /** better-sqlite3's Electron build, where the core runs inside Electron (electron/native-binding.ts). */
  sqliteNativeBinding?: string;
}

export function createCore(options: CoreOptions) {
  const events = createEventBus();
  const requests = options.log.child('api');
  const connectivity = createConnectivity((state) => events.emit('connectivity', state));
  const profiles = createProfileStore({ dataDir: options.dataDir, sandbox: options.sandbox });
  const credentials = createCredentials({
    profiles,
    vault: options.vault,
    sandboxSecret: options.sandbox?.secret ?? null,
    transport: options.transport,
    onSecret: (secret) => options.redactor.add(secret),
    onRequest: (event, profileId) => {
      // The status bar speaks of the active profile; testing another one must not flip it.
      if (profileId === profiles.active().id) connectivity.record(event);
      requests[event.outcome === 'ok' ? 'info' : 'warn']('request', { profileId, ...event });
    },
  });
  // One cache file per profile, opened when first needed and kept open: SQLite opens are not free.
  const caches = new Map<string, Cache>();
  function cacheFor(profileId: string): Cache {
    const id = profiles.get(profileId).id;
    let cache = caches.get(id);
    if (!cache) {
      cache = openCache(join(options.dataDir, 'cache', `${id}.sqlite`), { nativeBinding: options.sqliteNativeBinding });
      if (cache.recovered) options.log.warn('cache recovered', { profileId: id, ...cache.recovered });
      caches.set(id, cache);
    }
    return cache;
  }

  const syncJobs = createSyncJobs({ credentials, cacheFor, events, log: options.log.child('sync') });
  const router = createIpcRouter({
    ...createAppHandlers({ appVersion: options.appVersion, profiles, connectivity }),
    ...createProfileHandlers(profiles, credentials),
    ...createCredentialHandlers(credentials),
    ...createSyncHandlers(syncJobs, profiles),
  });
  return {
    events,
    connectivity,
    profiles,
    credentials,
    router,
    log: options.log,
    cacheFor,
    close() {
      syncJobs.cancelAll();
      for (const cache of caches.values()) cache.close();
      caches.clear();
    },
  };
}
export type Core = ReturnType<typeof createCore>;
