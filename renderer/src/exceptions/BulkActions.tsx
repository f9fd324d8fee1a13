import { useState, type FormEvent } from 'react';
import {
  BULK_ACTIONS,
  type BulkAction,
  type BulkResult,
  type ExceptionKey,
  type QueueFilter,
} from '../../../shared/desk';
import type { IpcError } from '../../../shared/ipc/contract';
import { asClause } from '../../../shared/messages';
import { ConfirmDialog } from '../ConfirmDialog';
import { ipcErrorOf } from '../query/ipc-query';
import { formatCalendarDate, formatCount } from '../../../shared/format';
import { FormField } from '../ui/FormField';
import { useBulkAction } from './exceptions-queries';
import { describeFilter } from './exceptions-store';

const LABEL: Record<BulkAction, string> = {
  acknowledge: 'Acknowledge',
  assign: 'Assign',
  resolve: 'Resolve',
  reopen: 'Reopen',
};
const DONE: Record<BulkAction, string> = {
  acknowledge: 'Acknowledged',
  assign: 'Assigned',
  resolve: 'Resolved',
  reopen: 'Reopened',
};

const plural = (n: number) => `${formatCount(n)} exception${n === 1 ? '' : 's'}`;

/** "Resolved 1,234 exceptions — journal entry 57". */
export const resultText = (r: BulkResult, to?: string): string =>
  `${DONE[r.action]} ${plural(r.count)}${r.action === 'assign' && to ? ` to ${to}` : ''} — journal entry ${r.journalSeq}`;

type Scope = 'ticked' | 'all';

/**
 * A refusal as main said it, after "Not done:": its text is not re-cased, since it may start with a person's login
 * ("mallory is not a person on this desk").
 */
export const refusalText = (message: string): string => `Not done: ${asClause(message)}.`;

type Outcome = { ok: true; text: string } | { ok: false; error: IpcError } | null;

/** The last action's result, or the refusal's own sentence (PERIOD_CLOSED, DESK_ROLE, …) as main said it. */
function BulkOutcome({ outcome }: { outcome: Outcome }) {
  if (outcome === null) return null;
  return outcome.ok ? (
    <p className="exceptions-outcome exceptions-outcome-ok" role="status">
      {outcome.text}
    </p>
  ) : (
    <p className="exceptions-outcome exceptions-outcome-refused" role="alert" data-code={outcome.error.code}>
      {refusalText(outcome.error.message)}
    </p>
  );
}

function ScopeChoice({
  scope,
  ticked,
  total,
  onChange,
}: {
  scope: Scope;
  ticked: number;
  total: number;
  onChange(scope: Scope): void;
}) {
  return (
    <fieldset className="exceptions-scope">
      <legend>Act on</legend>
      <label>
        <input
          type="radio"
          name="exceptions-scope"
          checked={scope === 'ticked'}
          disabled={ticked === 0}
          onChange={() => onChange('ticked')}
        />
        The ticked rows ({formatCount(ticked)})
      </label>
      <label>
        <input type="radio" name="exceptions-scope" checked={scope === 'all'} onChange={() => onChange('all')} />
        The whole filtered set ({formatCount(total)})
      </label>
    </fieldset>
  );
}

/**
 * One action on the ticked rows or on the whole filtered set, with one note (for Assign: the person), confirmed
 * with its count and filter before it is sent. The result or the refusal's sentence stays shown under the form.
 */
export function BulkActions({
  filter,
  ticked,
  total,
  onDone,
}: {
  filter: QueueFilter;
  ticked: readonly ExceptionKey[];
  total: number;
  onDone(): void;
}) {
  const bulk = useBulkAction();
  const [action, setAction] = useState<BulkAction>('acknowledge');
  const [chosenScope, setScope] = useState<Scope>('ticked');
  const [text, setText] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [asking, setAsking] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  // With nothing ticked, the whole filtered set is the only choice.
  const scope: Scope = ticked.length === 0 ? 'all' : chosenScope;
  const count = scope === 'all' ? total : ticked.length;
  const filterText = describeFilter(filter, formatCalendarDate);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) {
      setFieldError(action === 'assign' ? 'Name the person to assign them to.' : 'Write a note for the journal.');
      return;
    }
    if (count === 0) {
      setFieldError('No exceptions match the filters; there is nothing to act on.');
      return;
    }
    setFieldError(undefined);
    setAsking(true);
  }

  function send() {
    setAsking(false);
    setOutcome(null);
    const person = text.trim();
    bulk.mutate(
      { action, filter, keys: scope === 'ticked' ? [...ticked] : undefined, text: person },
      {
        onSuccess: (r) => {
          setOutcome({ ok: true, text: resultText(r, person) });
          setText('');
          onDone();
        },
        onError: (e) => setOutcome({ ok: false, error: ipcErrorOf(e) }),
      },
    );
  }

  return (
    <section className="exceptions-bulk" aria-label="Bulk action">
      <form className="exceptions-bulk-form" onSubmit={submit} noValidate aria-label="Act on exceptions">
        <ScopeChoice scope={scope} ticked={ticked.length} total={total} onChange={setScope} />
        <FormField label="Action">
          {(control) => (
            <select
              {...control}
              className="input"
              value={action}
              onChange={(e) => {
                setAction(e.target.value as BulkAction);
                setFieldError(undefined);
              }}
            >
              {BULK_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {LABEL[a]}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField
          label={action === 'assign' ? 'Assign to' : 'Note'}
          error={fieldError}
          hint={action === 'assign' ? 'A person on the desk (their login), or a name when working alone.' : undefined}
        >
          {(control) => (
            <input
              {...control}
              className="input exceptions-note"
              value={text}
              maxLength={action === 'assign' ? 120 : 2000}
              autoComplete="off"
              onChange={(e) => setText(e.target.value)}
            />
          )}
        </FormField>
        <button type="submit" className="button button-primary" disabled={bulk.isPending} aria-busy={bulk.isPending}>
          {bulk.isPending ? 'Sending…' : `${LABEL[action]} ${plural(count)}…`}
        </button>
      </form>
      <BulkOutcome outcome={outcome} />
      {asking && (
        <ConfirmDialog
          title={`${LABEL[action]} ${plural(count)}?`}
          confirmLabel={`${LABEL[action]} ${plural(count)}`}
          onConfirm={send}
          onCancel={() => setAsking(false)}
        >
          <p>
            {scope === 'all'
              ? `Every exception the filters match: ${plural(count)} (${filterText}).`
              : `The ${plural(count)} ticked on this page (filters: ${filterText}).`}
          </p>
          <p>
            {action === 'assign' ? `Assign to: ${text.trim()}` : `Note: ${text.trim()}`}. All of them or none, in one
            journal entry.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
