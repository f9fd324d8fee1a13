import { isPendingApproval, type Proposal } from '../../../shared/approvals';
import { confirmWord, useApprovalNeeded } from '../approvals/approvals-queries';
import { ProposedNotice } from '../approvals/ProposedNotice';
import { useState, type FormEvent } from 'react';
import type { IpcError } from '../../../shared/ipc/contract';
import {
  DOCUMENTED_TOPICS,
  splitTopics,
  webhookEdit,
  type UpdatedWebhook,
  type WebhookEdit,
  type WebhookRecord,
} from '../../../shared/webhooks';
import { ConfirmDialog } from '../ConfirmDialog';
import { OnActiveProfile } from '../EnvironmentBadge';
import { resultOf } from '../query/ipc-query';
import { errorsFromIpc, errorsFromIssues, zodIssues, type FormErrors } from '../ui/form-errors';
import { FormField } from '../ui/FormField';
import { SubmitButton } from '../ui/SubmitButton';
import { ErrorNotice } from '../ui/states';
import { useUpdateWebhook } from './webhooks-queries';

type Field = 'url' | 'topics' | 'active';
const LABELS: Record<Field, string> = { url: 'URL', topics: 'Topics', active: 'Active' };

/** The change between the endpoint and the draft: only what differs is sent. */
function changeOf(hook: WebhookRecord, url: string, topics: string[], active: boolean): WebhookEdit {
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((t, i) => t === b[i]);
  return {
    id: hook.id,
    ...(url.trim() !== hook.url ? { url: url.trim() } : {}),
    ...(!same(topics, hook.topics) ? { topics } : {}),
    ...(active !== (hook.status === 'active') ? { active } : {}),
  };
}

/** Edits one endpoint: URL (https only), topics (the documented ones offered, any other typed), active. */
export function WebhookEditor({ hook, onDone }: { hook: WebhookRecord; onDone(answer: UpdatedWebhook): void }) {
  const [url, setUrl] = useState(hook.url);
  const [documented, setDocumented] = useState(DOCUMENTED_TOPICS.filter((t) => hook.topics.includes(t)) as string[]);
  const [others, setOthers] = useState(
    hook.topics.filter((t) => !(DOCUMENTED_TOPICS as readonly string[]).includes(t)).join(', '),
  );
  const [active, setActive] = useState(hook.status === 'active');
  const [errors, setErrors] = useState<FormErrors<Field>>({});
  const [proposed, setProposed] = useState<Proposal | null>(null);
  const [pending, setPending] = useState<{ requestKey: string; change: WebhookEdit } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<IpcError | null>(null);
  // Hints for the buttons; the desk decides when the change is sent. Switching it off is a deactivation.
  const updateNeeds = useApprovalNeeded('webhook.update', null);
  const deactivateNeeds = useApprovalNeeded('webhook.deactivate', null);
  const update = useUpdateWebhook();
  const edited = () => setPending(null);

  function review(e: FormEvent) {
    e.preventDefault();
    const topics = [...documented, ...splitTopics(others).filter((t) => !documented.includes(t))];
    const change = changeOf(hook, url, topics, active);
    const checked = webhookEdit.safeParse(change);
    if (!checked.success) {
      setErrors(errorsFromIssues(LABELS, zodIssues(checked.error.issues)));
      return;
    }
    setErrors({});
    const next = pending ?? { requestKey: crypto.randomUUID(), change };
    setPending(next);
    // Turning an endpoint off stops the merchant's notifications: that one is confirmed.
    if (change.active === false) setConfirming(true);
    else void send(next);
  }

  async function send(p: { requestKey: string; change: WebhookEdit }) {
    setConfirming(false);
    setFailure(null);
    const r = await resultOf(update.mutateAsync(p));
    if (r.ok) {
      setPending(null);
      if (isPendingApproval(r.value)) setProposed(r.value.pendingApproval);
      else onDone(r.value);
    } else if (r.error.code === 'INVALID_INPUT') setErrors(errorsFromIpc(LABELS, r.error, 'change.'));
    else setFailure(r.error);
  }

  const unknown = failure !== null && /^API_(OUTCOME_UNKNOWN|INVALID_RESPONSE)$/.test(failure.code);
  return (
    <form className="tools-panel" onSubmit={review} noValidate aria-label={`Edit webhook ${hook.id}`}>
      <h2>
        Edit <span className="mono">{hook.id}</span>
      </h2>
      <ProposedNotice proposal={proposed} />
      <FormField label={LABELS.url} error={errors.url} hint="https:// only">
        {(p) => (
          <input
            {...p}
            className="input"
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              edited();
            }}
          />
        )}
      </FormField>
      <fieldset className="webhooks-topics">
        <legend>Topics</legend>
        {DOCUMENTED_TOPICS.map((t) => (
          <label key={t} className="webhooks-check">
            <input
              type="checkbox"
              checked={documented.includes(t)}
              onChange={(e) => {
                setDocumented((d) => (e.target.checked ? [...d, t] : d.filter((x) => x !== t)));
                edited();
              }}
            />
            <span className="mono">{t}</span>
          </label>
        ))}
        <FormField
          label="Other topics"
          error={errors.topics}
          hint="Any other event type, such as refund.processed; commas between"
        >
          {(p) => (
            <input
              {...p}
              className="input"
              value={others}
              onChange={(e) => {
                setOthers(e.target.value);
                edited();
              }}
            />
          )}
        </FormField>
      </fieldset>
      <label className="webhooks-check">
        <input
          type="checkbox"
          checked={active}
          onChange={(e) => {
            setActive(e.target.checked);
            edited();
          }}
        />
        Active
      </label>
      {errors.form && <p className="form-error">{errors.form}</p>}
      {failure && <ErrorNotice error={failure} />}
      {unknown && (
        <p className="notice notice-warning" role="note">
          Outcome unknown — check status: the list above is read again; look at this endpoint before saving again. This
          submission will not be sent again.
        </p>
      )}
      <div className="form-actions">
        <SubmitButton pending={update.isPending} pendingLabel="Saving…">
          {confirmWord(active ? updateNeeds : deactivateNeeds, 'Save changes')}
        </SubmitButton>
      </div>
      {confirming && pending && (
        <ConfirmDialog
          title={`Deactivate webhook ${hook.id}?`}
          confirmLabel={confirmWord(deactivateNeeds, 'Deactivate')}
          onConfirm={() => void send(pending)}
          onCancel={() => setConfirming(false)}
        >
          <p>
            The service stops sending {hook.topics.join(', ')} events to <span className="mono">{hook.url}</span>.
          </p>
          <OnActiveProfile />
        </ConfirmDialog>
      )}
    </form>
  );
}
