/**
 * The workflow of one record's exceptions, in its detail: state, who it is assigned to, the latest note, the
 * triage's answers (cause with its probability, severity, escalation, model) and the trail; actions to acknowledge,
 * resolve or reopen, to note and to assign, and to triage the record's whole date with the classification service.
 */
import { useState } from 'react';
import type { ExceptionAction } from '../../../shared/settlement-changes';
import { useReconAccounts, useSaveReconSettings } from '../reconciliation/recon-queries';
import { formatCalendarDate, formatIstInstant } from '../../../shared/format';
import { useOfflineReason } from '../ui/offline';
import { ErrorNotice } from '../ui/states';
import { WholeNumberField } from '../ui/WholeNumberField';
import { useException, useExceptionAction, useTriage } from './settlements-queries';

/**
 * How sure the triage must be of a cause to tag the exception, in percent: the profile's setting (kept with the
 * reconciliation settings in its cache), saved when the field is left or Enter is pressed.
 */
function TriageThreshold() {
  const settings = useReconAccounts().data?.settings;
  const save = useSaveReconSettings();
  if (!settings) return null;
  return (
    <span className="exc-threshold">
      <WholeNumberField
        label="Tag when the likely cause is at least"
        value={Math.round(settings.triageThreshold * 100)}
        max={100}
        suffix="%"
        onSave={(percent) => save.mutate({ triageThreshold: percent / 100 })}
      />
      {save.error && <ErrorNotice error={save.error.error} />}
    </span>
  );
}

const STATE_LABEL = { open: 'Open', acknowledged: 'Acknowledged', resolved: 'Resolved' } as const;
const pct = (p: number) => `${Math.round(p * 100)}%`;

export function ExceptionWorkflow({ recordId, date }: { recordId: number; date: string }) {
  const detail = useException(recordId);
  const act = useExceptionAction();
  const triage = useTriage();
  const offline = useOfflineReason();
  const [text, setText] = useState('');
  const d = detail.data;

  const run = (action: ExceptionAction) =>
    act.mutate({ recordId, action, ...(text.trim() ? { text } : {}) } as Parameters<typeof act.mutate>[0], {
      onSuccess: () => setText(''),
    });

  if (detail.error) return <ErrorNotice error={detail.error.error} onRetry={() => void detail.refetch()} />;
  if (!d) return null;
  return (
    <div className="exc-workflow" aria-label="Exception workflow" role="group">
      <p data-testid="exception-state">
        <strong>{STATE_LABEL[d.state]}</strong>
        {d.assignee && <> · assigned to {d.assignee}</>}
        {d.tag && <> · tagged {d.tag}</>}
      </p>
      {d.note && <p>Note: {d.note}</p>}
      {d.triage && (
        <p data-testid="exception-triage">
          Triage ({d.triage.model}): likely {d.triage.cause} ({pct(d.triage.causeProbability)}), severity{' '}
          {d.triage.severity.toFixed(1)} of 5, needs escalation {pct(d.triage.escalate)}
          {d.tag === null && ' — below the threshold, not tagged'}.
        </p>
      )}
      <label>
        Note or assignee{' '}
        <input value={text} onChange={(e) => setText(e.target.value)} maxLength={2000} aria-label="Note or assignee" />
      </label>
      <div className="exc-actions">
        {d.state === 'open' && (
          <button type="button" className="button" onClick={() => run('acknowledge')}>
            Acknowledge
          </button>
        )}
        <button type="button" className="button" disabled={!text.trim()} onClick={() => run('note')}>
          Add note
        </button>
        <button type="button" className="button" disabled={!text.trim()} onClick={() => run('assign')}>
          Assign
        </button>
        {d.state !== 'resolved' ? (
          <button type="button" className="button" onClick={() => run('resolve')}>
            Resolve
          </button>
        ) : (
          <button type="button" className="button" onClick={() => run('reopen')}>
            Reopen
          </button>
        )}
        <button
          type="button"
          className="button"
          disabled={offline !== null || triage.isPending}
          title={offline ?? undefined}
          onClick={() => triage.mutate({ date })}
        >
          {triage.isPending ? 'Triaging…' : `Triage ${formatCalendarDate(date)}`}
        </button>
        <TriageThreshold />
      </div>
      {act.error && <ErrorNotice error={act.error.error} />}
      {triage.error && <ErrorNotice error={triage.error.error} />}
      {triage.data && (
        <p data-testid="triage-summary">
          {triage.data.triaged} of {triage.data.exceptions} exceptions triaged ({triage.data.tagged} tagged at{' '}
          {pct(triage.data.threshold)} or more, {triage.data.skipped} already done or resolved)
          {triage.data.failed.length > 0 && `; ${triage.data.failed.length} not triaged`}.
        </p>
      )}
      {d.events.length > 0 && (
        <ol className="exc-events" aria-label="Trail">
          {d.events.map((e, i) => (
            <li key={i}>
              {formatIstInstant(e.at)} · {e.action}
              {e.text && `: ${e.text}`}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
