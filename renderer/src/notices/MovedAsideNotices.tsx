/**
 * Files main moved aside (an unreadable settings file, a damaged or tampered cache): one alert each, on every screen,
 * with where the file went, a button that shows it in the file manager and one that dismisses the alert. Main names
 * the file; the renderer only ever passes a notice's id back.
 */
import { useState } from 'react';
import { useDismissNotice, useNotices, useRevealNotice } from './notices-queries';

export function MovedAsideNotices() {
  const notices = useNotices().data ?? [];
  const reveal = useRevealNotice();
  const dismiss = useDismissNotice();
  const [unrevealed, setUnrevealed] = useState<ReadonlySet<string>>(new Set());
  const show = (id: string) =>
    reveal.mutate(
      { id },
      {
        onSuccess: ({ revealed }) => {
          if (!revealed) setUnrevealed((ids) => new Set(ids).add(id));
        },
        onError: () => setUnrevealed((ids) => new Set(ids).add(id)),
      },
    );

  if (notices.length === 0) return null;
  return (
    <div className="moved-aside-notices">
      {notices.map((notice) => (
        <div key={notice.id} className="notice notice-warning" role="alert">
          <p>
            <strong>{notice.kind === 'settings' ? 'Settings file moved aside' : 'Local cache moved aside'}.</strong>{' '}
            {notice.message}
          </p>
          <p className="mono">{notice.movedTo}</p>
          {unrevealed.has(notice.id) && <p className="muted">The file could not be shown; it may have been moved.</p>}
          <div className="form-actions">
            <button type="button" className="button" onClick={() => show(notice.id)}>
              Show in folder
            </button>
            <button type="button" className="button" onClick={() => dismiss.mutate({ id: notice.id })}>
              Dismiss
            </button>
          </div>
        </div>
      ))}
    </div>
  );
}
