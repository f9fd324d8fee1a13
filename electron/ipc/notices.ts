/** Handlers of the `notices.*` channels. */
import type { Notices } from '../notices';
import type { IpcHandlers } from './router';

export function createNoticeHandlers(
  notices: Notices,
): Pick<IpcHandlers, 'notices.list' | 'notices.reveal' | 'notices.dismiss'> {
  return {
    'notices.list': () => notices.list(),
    'notices.reveal': ({ id }) => ({ revealed: notices.reveal(id) }),
    'notices.dismiss': ({ id }) => ({ dismissed: notices.dismiss(id) }),
  };
}
