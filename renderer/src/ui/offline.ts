/**
 * Actions that need the service are disabled while it cannot be reached, and say why on hover. The offline
 * banner's "Check connection" is the one way back: it asks the service and, once it answers, enables them again.
 */
import { asClause } from '../../../shared/messages';
import { useConnectivity } from '../query/app-queries';

/** Null while the service may be asked; else the sentence a disabled action shows on hover. */
export function useOfflineReason(): string | null {
  const state = useConnectivity();
  if (state?.state !== 'offline') return null;
  return offlineReasonText(state.reason);
}

/** The sentence a disabled action shows while offline; the reason is a sentence of its own, so its stop is dropped. */
export function offlineReasonText(reason: string | null | undefined): string {
  return `Needs the service, which cannot be reached: ${asClause(reason ?? 'no answer')}. Use “Check connection” above to try again.`;
}
