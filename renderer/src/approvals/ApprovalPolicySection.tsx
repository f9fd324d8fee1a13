/**
 * The desk's approval policy in Settings: alone, a line saying approvals need a desk; on a desk, each action's rule
 * (needs approval, above which amount, a second approver above which, expiry) and the ad hoc charge's reason
 * multiple — edited by an admin through `approvals.setPolicy` (the desk refuses anyone else), read by the others.
 */
import { useState, type FormEvent } from 'react';
import {
  ACTION_LABELS,
  APPROVAL_ACTIONS,
  approvalPolicy,
  type ActionRule,
  type ApprovalAction,
  type ApprovalPolicy,
} from '../../../shared/approvals';
import { checkRupees } from '../../../shared/rupees';
import { useDeskStatus } from '../exceptions/exceptions-queries';
import { ipcErrorOf } from '../query/ipc-query';
import { formatMoney } from '../../../shared/money';
import { ErrorNotice } from '../ui/states';
import { useApprovalPolicy, useSetPolicy } from './approvals-queries';

/** Paise as the rupees an admin types back: "50000.00"; empty for none. */
const rupeesText = (minor: number | null) =>
  minor === null ? '' : `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;

type Draft = Record<ApprovalAction, { needs: boolean; above: string; second: string; hours: string }>;

const draftOf = (p: ApprovalPolicy): Draft =>
  Object.fromEntries(
    APPROVAL_ACTIONS.map((a) => {
      const r = p.rules[a];
      return [
        a,
        {
          needs: r.needsApproval,
          // 0 is "any amount": shown empty, as it is typed.
          above: r.aboveMinor === 0 ? '' : rupeesText(r.aboveMinor),
          second: rupeesText(r.secondApproverAboveMinor),
          hours: String(r.expiresHours),
        },
      ];
    }),
  ) as Draft;

/** The draft as a policy, or the first problem named by its action. */
function policyOf(draft: Draft, times: string): { ok: true; policy: ApprovalPolicy } | { ok: false; problem: string } {
  const rules = {} as Record<ApprovalAction, ActionRule>;
  for (const a of APPROVAL_ACTIONS) {
    const d = draft[a];
    const above = d.above.trim() === '' ? { ok: true as const, minor: 0 } : checkRupees(d.above);
    const second = d.second.trim() === '' ? null : checkRupees(d.second);
    if (!above.ok) return { ok: false, problem: `${ACTION_LABELS[a]}, above: ${above.reason}` };
    if (second && !second.ok) return { ok: false, problem: `${ACTION_LABELS[a]}, second approver: ${second.reason}` };
    rules[a] = {
      needsApproval: d.needs,
      aboveMinor: above.minor,
      secondApproverAboveMinor: second?.ok ? second.minor : null,
      expiresHours: Number(d.hours),
    };
  }
  const parsed = approvalPolicy.safeParse({ rules, chargeReasonAbovePlanTimes: Number(times) });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, problem: `${issue.path.join(' ')}: ${issue.message}` };
  }
  return { ok: true, policy: parsed.data };
}

function RuleRow({ action, rule }: { action: ApprovalAction; rule: ActionRule }) {
  return (
    <tr>
      <th scope="row">{ACTION_LABELS[action]}</th>
      <td>{rule.needsApproval ? 'Yes' : 'No'}</td>
      <td>{rule.aboveMinor === 0 ? 'Any amount' : formatMoney(rule.aboveMinor)}</td>
      <td>{rule.secondApproverAboveMinor === null ? '—' : formatMoney(rule.secondApproverAboveMinor)}</td>
      <td>{rule.expiresHours} h</td>
    </tr>
  );
}

/** The editor starts again from each saved version; its save, and what it answered, outlive that. */
function PolicyEditor({ policy, save }: { policy: ApprovalPolicy; save: ReturnType<typeof useSetPolicy> }) {
  const [draft, setDraft] = useState(() => draftOf(policy));
  const [times, setTimes] = useState(String(policy.chargeReasonAbovePlanTimes));
  const [problem, setProblem] = useState<string | null>(null);
  const set = (a: ApprovalAction, patch: Partial<Draft[ApprovalAction]>) =>
    setDraft((d) => ({ ...d, [a]: { ...d[a], ...patch } }));
  function submit(e: FormEvent) {
    e.preventDefault();
    const checked = policyOf(draft, times);
    setProblem(checked.ok ? null : checked.problem);
    if (checked.ok) save.mutate({ policy: checked.policy });
  }
  return (
    <form onSubmit={submit} noValidate aria-label="Approval policy">
      <table className="dt dt-compact approvals-policy">
        <thead>
          <tr>
            <th scope="col">Action</th>
            <th scope="col">Needs approval</th>
            <th scope="col">Above ₹ (empty: any)</th>
            <th scope="col">Second approver above ₹</th>
            <th scope="col">Expires after (hours)</th>
          </tr>
        </thead>
        <tbody>
          {APPROVAL_ACTIONS.map((a) => (
            <tr key={a}>
              <th scope="row">{ACTION_LABELS[a]}</th>
              <td>
                <input
                  type="checkbox"
                  aria-label={`${ACTION_LABELS[a]}: needs approval`}
                  checked={draft[a].needs}
                  onChange={(e) => set(a, { needs: e.target.checked })}
                />
              </td>
              {(['above', 'second', 'hours'] as const).map((k) => (
                <td key={k}>
                  <input
                    className="input"
                    inputMode="decimal"
                    aria-label={`${ACTION_LABELS[a]}: ${k === 'above' ? 'above' : k === 'second' ? 'second approver above' : 'expires after hours'}`}
                    value={draft[a][k]}
                    onChange={(e) => set(a, { [k]: e.target.value })}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <label className="approvals-policy-times">
        An ad hoc charge above this many times its subscription&apos;s amount needs a typed reason{' '}
        <input className="input" inputMode="numeric" value={times} onChange={(e) => setTimes(e.target.value)} />
      </label>
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      {save.error && <ErrorNotice error={ipcErrorOf(save.error)} />}
      {save.isSuccess && <p role="status">Saved: journal entry {save.data.journalSeq} on the desk.</p>}
      <button type="submit" className="button button-primary" disabled={save.isPending}>
        Save the policy
      </button>
    </form>
  );
}

export function ApprovalPolicySection() {
  const policy = useApprovalPolicy();
  const status = useDeskStatus().data;
  const save = useSetPolicy();
  const data = policy.data;
  return (
    <section className="settings-section" aria-labelledby="approval-policy-title">
      <h2 id="approval-policy-title">Approvals</h2>
      {policy.error && <ErrorNotice error={ipcErrorOf(policy.error)} onRetry={() => void policy.refetch()} />}
      {data?.mode === 'local' && (
        <p className="muted">
          Approvals need a desk: this profile works alone, so every action is sent as it is confirmed.
        </p>
      )}
      {data?.mode === 'desk' &&
        (status?.mode === 'desk' && status.reachable && status.role === 'admin' ? (
          <PolicyEditor key={data.version} policy={data.policy} save={save} />
        ) : (
          <>
            <p className="muted">The desk&apos;s policy; an admin changes it.</p>
            <table className="dt dt-compact approvals-policy" aria-label="Approval policy">
              <thead>
                <tr>
                  <th scope="col">Action</th>
                  <th scope="col">Needs approval</th>
                  <th scope="col">Above</th>
                  <th scope="col">Second approver above</th>
                  <th scope="col">Expires after</th>
                </tr>
              </thead>
              <tbody>
                {APPROVAL_ACTIONS.map((a) => (
                  <RuleRow key={a} action={a} rule={data.policy.rules[a]} />
                ))}
              </tbody>
            </table>
            <p className="muted">
              An ad hoc charge above {data.policy.chargeReasonAbovePlanTimes} times its subscription&apos;s amount needs
              a typed reason.
            </p>
          </>
        ))}
    </section>
  );
}
