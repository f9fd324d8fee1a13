/**
 * Files moved aside while the app runs (settings at start, a cache when it is opened), kept as notices the renderer
 * lists, shows with a button to reveal the file, and dismisses. Each is also pushed as an event the moment it happens,
 * so a screen already open learns of it, and logged.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { MovedAsideNotice } from '../shared/ipc/notices';
import type { EventBus } from './ipc/events';
import type { Logger } from './log';

export function createNotices(deps: {
  events: EventBus;
  log: Logger;
  /** Shows a file in the OS file manager (Electron's shell in the app); absent where there is none. */
  reveal?: (file: string) => void;
  now: () => Date;
}) {
  const notices = new Map<string, MovedAsideNotice>();
  return {
    movedAside(kind: MovedAsideNotice['kind'], movedTo: string, message: string): void {
      const notice = { id: randomUUID(), kind, movedTo, message, at: deps.now().toISOString() };
      notices.set(notice.id, notice);
      deps.log.warn('file moved aside', { kind, movedTo, message });
      deps.events.emit('fileMovedAside', notice);
    },
    list: (): MovedAsideNotice[] => [...notices.values()],
    reveal(id: string): boolean {
      const notice = notices.get(id);
      if (!notice || !deps.reveal || !existsSync(notice.movedTo)) return false;
      deps.reveal(notice.movedTo);
      return true;
    },
    dismiss: (id: string): boolean => notices.delete(id),
  };
}
export type Notices = ReturnType<typeof createNotices>;
