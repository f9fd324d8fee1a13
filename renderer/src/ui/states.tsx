/** Loading, empty and failed states, so every screen says the same things the same way. */
import type { ReactNode } from 'react';
import type { IpcError } from '../../../shared/ipc/contract';

export function Skeleton({ rows = 3, label = 'Loading' }: { rows?: number; label?: string }) {
  return (
    <div className="skeleton" role="status" aria-label={label} aria-busy="true">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton-line" />
      ))}
    </div>
  );
}

/** What is missing and what to do about it. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-title">{title}</p>
      {children && <p className="muted">{children}</p>}
    </div>
  );
}

/** What happened (main's sentence, which names the cause) and a way to try again. */
export function ErrorNotice({ error, onRetry }: { error: IpcError; onRetry?: () => void }) {
  return (
    <div className="notice notice-error error-notice" role="alert">
      <span>{error.message}</span>
      {error.details?.map((d) => (
        <span key={d.path} className="error-detail">
          {d.path}: {d.message}
        </span>
      ))}
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
