/** The files main moved aside: a notice pushed by main makes the list stale (query/main-events.ts), a dismissal too. */
import { useIpcMutation, useIpcQuery } from '../query/ipc-query';

export const useNotices = () => useIpcQuery('notices.list');
export const useRevealNotice = () => useIpcMutation('notices.reveal');
export const useDismissNotice = () => useIpcMutation('notices.dismiss', { invalidates: ['notices.list'] });
