/**
 * The watch list's news as an OS notification, where the OS has them: the status bar says the same on every
 * screen, but a desk working in another program sees only this. One notification per round that found something
 * (the round's notices in one sentence, shared/payout-watch.ts), none for a quiet round. The OS side is given by
 * main (Electron's Notification); the core, which runs without Electron, only decides what to say and when.
 */
import { watchNoticeText, type WatchState } from '../../shared/payout-watch';
import type { EventBus } from '../ipc/events';

export interface OsNotifications {
  /** Whether this OS shows notifications at all (Electron's `Notification.isSupported()`). */
  isSupported(): boolean;
  show(notification: { title: string; body: string }): void;
}

export const WATCH_NOTIFICATION_TITLE = 'Payout Console: watch list';

/** Shows each `payoutWatch` round's news; returns the function that stops it. */
export function notifyWatchNews(events: EventBus, os: OsNotifications): () => void {
  return events.subscribe((event, payload) => {
    if (event !== 'payoutWatch') return;
    const body = watchNoticeText((payload as WatchState).fresh);
    if (body === null || !os.isSupported()) return;
    os.show({ title: WATCH_NOTIFICATION_TITLE, body });
  });
}
