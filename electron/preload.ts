/**
 * Exposes `window.api`: one named method per channel and one subscription per event in `shared/ipc/channels.ts`,
 * nothing else. The renderer never sees `ipcRenderer`, so it cannot reach a channel the contract does not name.
 *
 * Runs sandboxed: electron-vite bundles this file and the name lists into one CommonJS file whose only `require`
 * is `electron`.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { eventChannel, type IpcEvent } from '../shared/ipc/channels';
import { createIpcApi } from '../shared/ipc/client';

contextBridge.exposeInMainWorld(
  'api',
  createIpcApi(
    (channel, input) => ipcRenderer.invoke(channel, input),
    (event, listener) => {
      const channel = eventChannel(event as IpcEvent);
      // The Electron event object stays here: it would hand the renderer `sender`, an ipcRenderer.
      const forward = (_e: IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(channel, forward);
      return () => ipcRenderer.removeListener(channel, forward);
    },
  ),
);
