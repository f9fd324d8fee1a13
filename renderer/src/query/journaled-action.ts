import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { isPendingApproval, sentForApprovalText, type PendingApproval } from '../../../shared/approvals';
import type { IpcChannel } from '../../../shared/ipc/channels';
import type { IpcError } from '../../../shared/ipc/contract';
import { invalidateChannels, resultOf, useIpcMutation } from './ipc-query';

/**
 * An action at the service that main journals: a failed one is journaled too (refused, or outcome unknown), so the
 * reads of `changed` (and the journal) go stale whichever way it ended, not only when it worked.
 */
export function useJournaledAction<C extends IpcChannel>(channel: C, changed: readonly string[]) {
  const client = useQueryClient();
  const stale = [...changed, 'journal.'];
  return useIpcMutation(channel, { invalidates: stale, onError: () => void invalidateChannels(client, stale) });
}

/**
 * An action whose answer was lost (no answer, or one that could not be read) may have happened. Main keeps the
 * request key of such a submission and answers a second send of it with the same error instead of sending it again.
 */
export function mayHaveHappened(error: IpcError): boolean {
  return error.code === 'API_OUTCOME_UNKNOWN' || error.code === 'API_INVALID_RESPONSE';
}

/** What a money action's panel says when it failed: refused as the service said, or "outcome unknown". */
export function failedActionOutcome(error: IpcError): { ok: false; unknown: boolean; text: string } {
  const unknown = mayHaveHappened(error);
  return {
    ok: false,
    unknown,
    text: unknown ? `Outcome unknown — check status below before trying again. ${error.message}` : error.message,
  };
}

export interface ActionOutcome {
  ok: boolean;
  text: string;
  unknown?: boolean;
}

/**
 * A money action awaiting its confirmation: what is asked (with the request key made when it was asked), the outcome
 * shown after, and the one send. A second confirm while the first is out sends nothing: the guard is a ref, set
 * before the await, so a double click inside one render cannot pass it.
 */
export function useConfirmedAction<Asked>() {
  const [pending, setPending] = useState<Asked | null>(null);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  const inFlight = useRef(false);
  /** Sends what was asked; true when the service did it or the desk took it as a proposal. */
  async function confirm(
    send: (asked: Asked) => Promise<{ outcome: { summary: string } } | PendingApproval>,
  ): Promise<boolean> {
    if (!pending || inFlight.current) return false;
    inFlight.current = true;
    const result = await resultOf(send(pending));
    inFlight.current = false;
    setPending(null);
    setOutcome(
      !result.ok
        ? failedActionOutcome(result.error)
        : isPendingApproval(result.value)
          ? { ok: true, text: sentForApprovalText(result.value.pendingApproval) }
          : { ok: true, text: result.value.outcome.summary },
    );
    return result.ok;
  }
  return { pending, ask: setPending, drop: () => setPending(null), outcome, confirm };
}
