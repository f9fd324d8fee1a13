/** The confirmations of a step on a proposal: approve (the amount again, and whether it sends now), reject, settle. */
import { useState } from 'react';
import { amountInWords } from '../../../shared/amount-words';
import { typedReason, type Proposal } from '../../../shared/approvals';
import { ConfirmDialog } from '../ConfirmDialog';
import { ipcErrorOf } from '../query/ipc-query';
import { FormField } from '../ui/FormField';
import { formatMoney } from '../../../shared/money';
import { ErrorNotice } from '../ui/states';
import { useApprove, useReject, useSettleProposal } from './approvals-queries';

/** A typed reason's problem, as the channel would refuse it; null when it will do. */
function reasonProblem(text: string): string | null {
  const parsed = typedReason.safeParse(text);
  return parsed.success ? null : `The reason ${parsed.error.issues[0]!.message}.`;
}

export function ApproveDialog({ p, onClose }: { p: Proposal; onClose(): void }) {
  const approve = useApprove();
  const last = p.approvals.length + 1 >= p.needed;
  return (
    <ConfirmDialog
      title={last ? 'Approve and send now?' : 'Approve this proposal?'}
      confirmLabel={approve.isPending ? 'Approving…' : last ? 'Approve and send' : 'Approve'}
      busy={approve.isPending}
      className="money-confirm"
      onConfirm={() => approve.mutate({ id: p.id }, { onSuccess: onClose })}
      onCancel={() => {
        if (!approve.isPending) onClose();
      }}
    >
      <p>{p.summary}</p>
      {p.amount !== null && (
        <dl className="money-confirm-facts">
          <dt>Amount</dt>
          <dd>
            <strong className="money-confirm-figures">{formatMoney(p.amount, p.currency ?? 'INR')}</strong>
            <span className="money-confirm-words">{amountInWords(p.amount, p.currency ?? 'INR')}</span>
          </dd>
        </dl>
      )}
      <p>
        {last
          ? 'Yours is the last approval it needs: approving sends it from this console now.'
          : `It needs ${p.needed} approvals; after yours it waits for one more, and nothing is sent yet.`}
      </p>
      {approve.error && <ErrorNotice error={ipcErrorOf(approve.error)} />}
    </ConfirmDialog>
  );
}

export function RejectDialog({ p, onClose }: { p: Proposal; onClose(): void }) {
  const reject = useReject();
  const [reason, setReason] = useState('');
  const [shown, setShown] = useState<string>();
  const problem = reasonProblem(reason);
  return (
    <ConfirmDialog
      title="Reject this proposal?"
      confirmLabel={reject.isPending ? 'Rejecting…' : 'Reject'}
      busy={reject.isPending}
      blocked={problem ?? undefined}
      onConfirm={() => {
        setShown(problem ?? undefined);
        if (!problem) reject.mutate({ id: p.id, reason: reason.trim() }, { onSuccess: onClose });
      }}
      onCancel={() => {
        if (!reject.isPending) onClose();
      }}
    >
      <p>{p.summary}</p>
      <FormField label="Reason (the maker reads it)" error={shown} hint="A few words on why.">
        {(control) => (
          <textarea
            {...control}
            className="input"
            rows={3}
            maxLength={500}
            value={reason}
            onChange={(e) => {
              setReason(e.target.value);
              setShown(undefined);
            }}
          />
        )}
      </FormField>
      {reject.error && <ErrorNotice error={ipcErrorOf(reject.error)} />}
    </ConfirmDialog>
  );
}

/** An outcome no check can settle: what the person saw in the service's own records, with a note. */
export function SettleDialog({ p, onClose }: { p: Proposal; onClose(): void }) {
  const settle = useSettleProposal();
  const [done, setDone] = useState<boolean | null>(null);
  const [note, setNote] = useState('');
  const problem = done === null ? 'Say whether it was done.' : reasonProblem(note);
  return (
    <ConfirmDialog
      title="Record the outcome"
      confirmLabel={settle.isPending ? 'Recording…' : 'Record'}
      busy={settle.isPending}
      blocked={problem ?? undefined}
      onConfirm={() => {
        if (done !== null && !problem) {
          settle.mutate({ id: p.id, succeeded: done, note: note.trim() }, { onSuccess: onClose });
        }
      }}
      onCancel={() => {
        if (!settle.isPending) onClose();
      }}
    >
      <p>{p.summary}</p>
      <fieldset className="approvals-settle">
        <legend>What the service&apos;s own records show</legend>
        <label>
          <input type="radio" name="settle" checked={done === true} onChange={() => setDone(true)} /> Done
        </label>
        <label>
          <input type="radio" name="settle" checked={done === false} onChange={() => setDone(false)} /> Not done
        </label>
      </fieldset>
      <FormField label="Note (where you looked)">
        {(control) => (
          <textarea
            {...control}
            className="input"
            rows={2}
            maxLength={500}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
        )}
      </FormField>
      {settle.error && <ErrorNotice error={ipcErrorOf(settle.error)} />}
    </ConfirmDialog>
  );
}
