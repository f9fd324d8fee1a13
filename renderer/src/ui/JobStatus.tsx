/** How a background job of main (a sync, an export) shows: a progress bar with Cancel, then its outcome in words. */
import type { ReactNode } from 'react';

/** A progress bar (indeterminate while `value` is null), what is happening, and Cancel. */
export function JobProgress(props: {
  label: string;
  value: number | null;
  max: number;
  children: ReactNode;
  cancelling: boolean;
  onCancel(): void;
}) {
  return (
    <div className="job-progress">
      <progress aria-label={props.label} value={props.value ?? undefined} max={props.max} />
      <span className="job-text">{props.children}</span>
      <button type="button" className="button" disabled={props.cancelling} onClick={props.onCancel}>
        {props.cancelling ? 'Cancelling…' : 'Cancel'}
      </button>
    </div>
  );
}

/** What happened, until dismissed; `actions` go before Dismiss (e.g. "Show in folder"). */
export function JobOutcome({
  tone,
  children,
  actions,
  onDismiss,
}: {
  tone: 'ok' | 'warning' | 'error';
  children: ReactNode;
  actions?: ReactNode;
  onDismiss(): void;
}) {
  return (
    <div className={`notice job-outcome job-outcome-${tone}`} role={tone === 'ok' ? 'status' : 'alert'}>
      <div className="job-outcome-text">{children}</div>
      {actions}
      <button type="button" className="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

/** A duration in words a person reads at a glance. */
export const formatSeconds = (s: number) => (s < 90 ? `${Math.max(1, Math.round(s))} s` : `${Math.round(s / 60)} min`);
