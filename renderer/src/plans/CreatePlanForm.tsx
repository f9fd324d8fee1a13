import { isPendingApproval, type Proposal } from '../../../shared/approvals';
import { confirmWord, useApprovalNeeded } from '../approvals/approvals-queries';
import type { CreatedPlan } from '../../../shared/plans';
import { ProposedNotice } from '../approvals/ProposedNotice';
import { useState, type FormEvent } from 'react';
import type { IpcError, IpcOutput } from '../../../shared/ipc/contract';
import { PLAN_NOTE_FIELDS, planForm, type PlanCreate, type PlanForm } from '../../../shared/plans';
import { ConfirmDialog } from '../ConfirmDialog';
import { OnActiveProfile } from '../EnvironmentBadge';
import { ask, resultOf } from '../query/ipc-query';
import { errorsFromIpc, errorsFromIssues, zodIssues, type FormErrors } from '../ui/form-errors';
import { FormField } from '../ui/FormField';
import { formatMoney } from '../../../shared/money';
import { useOfflineReason } from '../ui/offline';
import { SubmitButton } from '../ui/SubmitButton';
import { ErrorNotice } from '../ui/states';
import { useCheckPlanCreate, useCreatePlan } from './plans-queries';

type Note = (typeof PLAN_NOTE_FIELDS)[number];
type Field =
  'title' | 'description' | 'amount' | 'frequency' | 'cycle' | 'currency' | 'mer_reference_id' | `notes.${Note}`;
const LABELS = {
  title: 'Title',
  description: 'Description',
  amount: 'Amount (₹)',
  frequency: 'Frequency (days)',
  cycle: 'Cycle (deductions)',
  currency: 'Currency',
  mer_reference_id: 'Merchant reference id',
  ...Object.fromEntries(PLAN_NOTE_FIELDS.map((k) => [`notes.${k}`, k])),
} as Record<Field, string>;

const EMPTY = {
  title: '',
  description: '',
  amount: '',
  frequency: '30',
  cycle: '12',
  currency: 'INR',
  mer_reference_id: '',
  ...Object.fromEntries(PLAN_NOTE_FIELDS.map((k) => [`notes.${k}`, ''])),
} as Record<Field, string>;

const MAIN_FIELDS = ['title', 'amount', 'currency', 'frequency', 'cycle', 'mer_reference_id', 'description'] as const;
const HINTS: Partial<Record<Field, string>> = {
  amount: 'Rupees, up to two decimals; sent as paise',
  mer_reference_id: 'Your own id for the plan; a plan can be fetched by it',
};

function toForm(d: Record<Field, string>): PlanForm {
  return {
    title: d.title,
    description: d.description,
    amount: d.amount,
    frequency: d.frequency,
    cycle: d.cycle,
    currency: d.currency,
    mer_reference_id: d.mer_reference_id,
    notes: Object.fromEntries(PLAN_NOTE_FIELDS.map((k) => [k, d[`notes.${k}`] || undefined])),
  };
}

/** Create a plan with every documented field; the amount in rupees, exact; confirmed; sent once per submission. */
export function CreatePlanForm({ onCreated }: { onCreated(planId: string): void }) {
  const [draft, setDraft] = useState(EMPTY);
  const [errors, setErrors] = useState<FormErrors<Field>>({});
  const [pending, setPending] = useState<{ requestKey: string; form: PlanForm; plan: PlanCreate } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [created, setCreated] = useState<CreatedPlan | null>(null);
  const [proposed, setProposed] = useState<Proposal | null>(null);
  const [failure, setFailure] = useState<IpcError | null>(null);
  const [check, setCheck] = useState<IpcOutput<'plans.checkCreate'> | null>(null);
  const create = useCreatePlan();
  const checkCreate = useCheckPlanCreate();
  const offline = useOfflineReason();
  const needsApproval = useApprovalNeeded('plan.create', pending ? Number(pending.plan.amount) : null);

  const change = (field: Field, value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setPending(null);
  };

  function review(e: FormEvent) {
    e.preventDefault();
    const form = toForm(draft);
    const checked = planForm.safeParse(form);
    if (!checked.success) {
      setErrors(errorsFromIssues(LABELS, zodIssues(checked.error.issues)));
      return;
    }
    setErrors({});
    setPending((p) => p ?? { requestKey: crypto.randomUUID(), form, plan: checked.data });
    setConfirming(true);
  }

  async function send() {
    if (!pending) return;
    setConfirming(false);
    setFailure(null);
    setCheck(null);
    const r = await resultOf(create.mutateAsync({ requestKey: pending.requestKey, plan: pending.form }));
    // The key stays until the form is edited: sent again unchanged, it is the same submission, never a second plan.
    if (r.ok) {
      const value = r.value;
      if (isPendingApproval(value)) setProposed(value.pendingApproval);
      else {
        setCreated(value);
        onCreated(value.planId);
      }
    } else if (r.error.code === 'INVALID_INPUT') setErrors(errorsFromIpc(LABELS, r.error, 'plan.'));
    else setFailure(r.error);
  }

  const unknown = failure !== null && /^API_(OUTCOME_UNKNOWN|INVALID_RESPONSE)$/.test(failure.code);
  const field = (f: Field, hint?: string) => (
    <FormField key={f} label={LABELS[f]} error={errors[f]} hint={hint}>
      {(p) => (
        <input
          {...p}
          className="input"
          inputMode={f === 'amount' ? 'decimal' : undefined}
          value={draft[f]}
          onChange={(e) => change(f, e.target.value)}
        />
      )}
    </FormField>
  );

  return (
    <section className="tools-panel" aria-labelledby="plans-create-title">
      <h2 id="plans-create-title">Create a plan</h2>
      <form onSubmit={review} noValidate>
        <fieldset className="form-grid tools-fields" disabled={create.isPending}>
          {MAIN_FIELDS.map((f) => field(f, HINTS[f]))}
          {PLAN_NOTE_FIELDS.map((k) => field(`notes.${k}`, 'Note, optional'))}
        </fieldset>
        {errors.form && <p className="form-error">{errors.form}</p>}
        <div className="form-actions">
          <SubmitButton pending={create.isPending} pendingLabel="Creating…">
            Create plan…
          </SubmitButton>
        </div>
      </form>
      {failure && <ErrorNotice error={failure} />}
      {unknown && (
        <div className="notice notice-warning" role="note">
          Outcome unknown — check status. This submission will not be sent again.{' '}
          <button
            type="button"
            className="button"
            disabled={checkCreate.isPending || offline !== null}
            title={offline ?? undefined}
            onClick={() => {
              void (async () => {
                const seq = await latestAttemptSeq(pending?.form.mer_reference_id ?? '');
                if (seq === null) return;
                const r = await resultOf(checkCreate.mutateAsync({ attemptSeq: seq }));
                if (r.ok) {
                  setCheck(r.value);
                  if (r.value.plan) onCreated(r.value.plan.id);
                }
              })();
            }}
          >
            Check status
          </button>
        </div>
      )}
      {check && (
        <p className={`notice ${check.check.outcome === 'succeeded' ? '' : 'notice-warning'}`} role="status">
          {check.check.summary}
        </p>
      )}
      <ProposedNotice proposal={proposed} />
      {created && (
        <p className="notice" role="status">
          Created plan <span className="mono">{created.planId}</span>
          {created.message ? `: ${created.message}` : ''} (journal entry {created.attemptSeq}).
        </p>
      )}
      {confirming && pending && (
        <ConfirmDialog
          title={`Create the plan “${pending.plan.title}”?`}
          confirmLabel={confirmWord(needsApproval, 'Create plan')}
          onConfirm={() => void send()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            <strong className="money">{formatMoney(Number(pending.plan.amount), pending.plan.currency)}</strong> every{' '}
            {pending.plan.frequency} days, {pending.plan.cycle} times; reference{' '}
            <span className="mono">{pending.plan.mer_reference_id}</span>.
          </p>
          <OnActiveProfile />
        </ConfirmDialog>
      )}
    </section>
  );
}

/** The newest plan-create attempt for this reference, from the journal: what "Check status" settles. */
async function latestAttemptSeq(reference: string): Promise<number | null> {
  const { entries } = await ask('journal.list', { kind: 'action', outcome: 'attempted', text: reference, limit: 20 });
  return entries.find((e) => e.event === 'plan.create')?.seq ?? null;
}
