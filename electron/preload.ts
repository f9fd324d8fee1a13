/**
 * Exposes `window.api`: one named method per channel in `shared/ipc/channels.ts`, nothing else. The renderer never
 * sees `ipcRenderer`, so it cannot reach a channel the contract does not name.
 *
 * Runs sandboxed: electron-vite bundles this file and the channel list into one CommonJS file whose only `require`
 * is `electron`.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createIpcApi } from '../shared/ipc/client';

contextBridge.exposeInMainWorld(
  'api',
  createIpcApi((channel, input) => ipcRenderer.invoke(channel, input)),
);
