/**
 * A new proposal waiting for this person, as an OS notification while the console is open: the status bar counts
 * them on every screen, but an approver working in another program sees only this. On the desk's `proposals` notice
 * for the active profile the counts are read again, and only a rise in "waiting for me" is told — an approval, a
 * rejection or a withdrawal elsewhere says nothing. The first reading after the desk is reached (its `connection`
 * notice) only sets the mark, so opening the console does not announce what already waited; a rise while the desk
 * was away is told when it is back.
 */
import type { ApprovalCounts } from '../../shared/approvals';
import type { EventBus } from '../ipc/events';
import type { Logger } from '../log';
import type { OsNotifications } from '../treasury/watch-notifications';

export const APPROVALS_NOTIFICATION_TITLE = 'Payout Console: approvals';

/** What the notification says when `waiting` rose from `before` to `now`. */
export function approvalsNoticeText(before: number, now: number): string {
  const fresh = now - before;
  const head = fresh === 1 ? 'A new proposal waits' : `${fresh} new proposals wait`;
  return `${head} for your approval (${now} in all): open Approvals to review.`;
}

export function notifyNewProposals(deps: {
  events: EventBus;
  os: OsNotifications;
  counts(profileId: string): Promise<ApprovalCounts | null>;
  activeProfileId(): string;
  log: Logger;
}): () => void {
  /** Each profile's last "waiting for me", once read. */
  const seen = new Map<string, number>();
  /** One reading at a time per profile, so two notices in a row compare in order. */
  let chain: Promise<void> = Promise.resolve();

  async function read(profileId: string): Promise<void> {
    const counts = await deps.counts(profileId);
    if (counts === null) return;
    const before = seen.get(profileId);
    seen.set(profileId, counts.waiting);
    if (before === undefined || counts.waiting <= before || !deps.os.isSupported()) return;
    deps.os.show({ title: APPROVALS_NOTIFICATION_TITLE, body: approvalsNoticeText(before, counts.waiting) });
  }

  return deps.events.subscribe((event, payload) => {
    if (event !== 'desk') return;
    const { profileId, topic } = payload as { profileId: string; topic: string };
    if ((topic !== 'proposals' && topic !== 'connection') || profileId !== deps.activeProfileId()) return;
    chain = chain
      .then(() => read(profileId))
      .catch((e: unknown) => deps.log.warn('approval counts not read for a notification', { profileId, error: e }));
  });
}
