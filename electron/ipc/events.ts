/**
 * Events main pushes to the renderer. Every payload is checked against the contract before it leaves, so a
 * bug cannot push a shape (or a field) the renderer was not promised.
 */
import type { IpcEvent } from '../../shared/ipc/channels';
import { ipcEvents, type IpcEventPayload } from '../../shared/ipc/contract';

export type EventListener = (event: IpcEvent, payload: unknown) => void;

export function createEventBus() {
  const listeners = new Set<EventListener>();
  return {
    emit<E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void {
      const checked = ipcEvents[event].parse(payload);
      for (const l of listeners) l(event, checked);
    },
    /** Returns the function that unsubscribes. */
    subscribe(listener: EventListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
export type EventBus = ReturnType<typeof createEventBus>;
