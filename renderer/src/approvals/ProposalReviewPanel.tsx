/**
 * What an approver reads before approving: the request exactly as it will be sent (every field under its label,
 * amounts in figures and words), what this console fetched again just now, the approvals so far, and why it cannot be approved. The
 * steps shown are the ones this person may take: approve, reject with a reason, withdraw their own, check an
 * unknown outcome, or record what the service's own records show.
 */
import { useState } from 'react';
import { requestLines } from '../../../shared/approval-request';
import { ACTION_LABELS, PROPOSAL_STATE_LABELS, type Proposal } from '../../../shared/approvals';
import { ipcErrorOf, loadableOf } from '../query/ipc-query';
import { useDeskStatus } from '../exceptions/exceptions-queries';
import { formatIstInstant } from '../../../shared/format';
import { ErrorNotice, Skeleton } from '../ui/states';
import { useCheckProposal, useProposalReview, useWithdraw } from './approvals-queries';
import { ApproveDialog, RejectDialog, SettleDialog } from './ProposalDialogs';

function Lines({ label, lines }: { label: string; lines: readonly [string, string][] }) {
  return (
    <dl className="facts approvals-lines" aria-label={label}>
      {lines.map(([k, v], i) => (
        <div key={`${k}-${i}`} className="approvals-line">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

type Open = 'approve' | 'reject' | 'settle' | null;

function Steps({
  p,
  canApprove,
  cannotApproveReason,
  blocked,
}: {
  p: Proposal;
  canApprove: boolean;
  cannotApproveReason: string | null;
  blocked: string | null;
}) {
  const me = useDeskStatus().data;
  const person = me?.mode === 'desk' ? me.person : null;
  const [open, setOpen] = useState<Open>(null);
  const withdraw = useWithdraw();
  const check = useCheckProposal();
  const failed = withdraw.error ?? check.error;
  const why = canApprove ? undefined : (blocked ?? cannotApproveReason ?? undefined);
  return (
    <>
      <div className="approvals-steps">
        {p.state === 'pending' && (
          <>
            <button
              type="button"
              className="button button-primary"
              disabled={!canApprove}
              aria-describedby={why ? 'approve-why' : undefined}
              onClick={() => setOpen('approve')}
            >
              Approve…
            </button>
            {p.maker !== person && (
              <button type="button" className="button" onClick={() => setOpen('reject')}>
                Reject…
              </button>
            )}
            {p.maker === person && (
              <button
                type="button"
                className="button"
                disabled={withdraw.isPending}
                onClick={() => withdraw.mutate({ id: p.id })}
              >
                Withdraw
              </button>
            )}
            {why && (
              <span id="approve-why" className="muted">
                {why}
              </span>
            )}
          </>
        )}
        {p.state === 'unknown' && (
          <>
            <button
              type="button"
              className="button"
              disabled={check.isPending}
              onClick={() => check.mutate({ id: p.id })}
            >
              Check status
            </button>
            <button type="button" className="button" onClick={() => setOpen('settle')}>
              Record outcome…
            </button>
          </>
        )}
      </div>
      {failed && <ErrorNotice error={ipcErrorOf(failed)} />}
      {open === 'approve' && <ApproveDialog p={p} onClose={() => setOpen(null)} />}
      {open === 'reject' && <RejectDialog p={p} onClose={() => setOpen(null)} />}
      {open === 'settle' && <SettleDialog p={p} onClose={() => setOpen(null)} />}
    </>
  );
}

function History({ p }: { p: Proposal }) {
  const lines: [string, string][] = [
    ['Proposed', `${formatIstInstant(p.madeAt)} by ${p.maker} (${p.makerConsole})`],
    ['Expires', formatIstInstant(p.expiresAt)],
    ['Approvers needed', String(p.needed)],
    ...p.approvals.map((a): [string, string] => ['Approved', `${formatIstInstant(a.at)} by ${a.person}`]),
  ];
  if (p.decidedBy && p.decidedAt) lines.push(['Decided', `${formatIstInstant(p.decidedAt)} by ${p.decidedBy}`]);
  if (p.reason) lines.push(['Reason', p.reason]);
  if (p.sender) lines.push(['Sent by', p.sender]);
  if (p.outcomeSummary) {
    lines.push(['Outcome', `${p.outcomeAt ? `${formatIstInstant(p.outcomeAt)}: ` : ''}${p.outcomeSummary}`]);
  }
  return <Lines label="Steps so far" lines={lines} />;
}

export function ProposalReviewPanel({ id, onClose }: { id: string; onClose(): void }) {
  const query = useProposalReview(id);
  const review = loadableOf(query);
  if (review.status === 'loading') return <Skeleton label="Loading the proposal" />;
  if (review.status === 'failed') return <ErrorNotice error={review.error} onRetry={() => void query.refetch()} />;
  const { proposal: p, facts, blocked, canApprove, cannotApproveReason } = review.value;
  return (
    <section className="panel approvals-review" aria-label={`Proposal ${p.id}`}>
      <header className="approvals-review-head">
        <h2>
          {ACTION_LABELS[p.action]} — {PROPOSAL_STATE_LABELS[p.state]}
        </h2>
        <button type="button" className="button button-quiet" onClick={onClose}>
          Close
        </button>
      </header>
      <p>{p.summary}</p>
      {blocked && (
        <p className="notice notice-error" role="alert">
          Blocked: {blocked}
        </p>
      )}
      <h3>The request, exactly as it will be sent</h3>
      <Lines label="The request" lines={requestLines(p)} />
      {facts.length > 0 && (
        <>
          <h3>Fetched again just now</h3>
          <Lines label="Fetched again" lines={facts.map((f): [string, string] => [f.label, f.value])} />
        </>
      )}
      <h3>Steps</h3>
      <History p={p} />
      <Steps p={p} canApprove={canApprove} cannotApproveReason={cannotApproveReason} blocked={blocked} />
    </section>
  );
}
