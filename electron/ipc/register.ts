/**
 * Wires the router to Electron's `ipcMain.handle`, one listener per channel. Typed against the small part of
 * `ipcMain` it uses so tests can pass a fake.
 */
import type { IpcRouter, IpcSender } from './router';

/** The fields of Electron's `WebFrameMain` that identify a sender. */
export interface SenderFrameLike {
  readonly url: string;
  readonly parent: unknown;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: { senderFrame: SenderFrameLike | null }, input: unknown) => unknown): void;
  removeHandler(channel: string): void;
}

export function senderOf(frame: SenderFrameLike | null): IpcSender {
  return { frameUrl: frame?.url ?? null, isMainFrame: frame !== null && frame.parent === null };
}

/** Returns a function that removes the handlers again. */
export function registerIpc(ipcMain: IpcMainLike, router: IpcRouter, appOrigin: string): () => void {
  for (const channel of router.channels) {
    ipcMain.handle(channel, (event, input) => router.handle(channel, input, senderOf(event.senderFrame), appOrigin));
  }
  return () => {
    for (const channel of router.channels) ipcMain.removeHandler(channel);
  };
}
