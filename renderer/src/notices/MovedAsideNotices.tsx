/**
 * Files main moved aside (an unreadable settings file, a damaged or tampered cache): one alert each, on every screen,
 * with where the file went, a button that shows it in the file manager and one that dismisses the alert. Main names
 * the file; the renderer only ever passes a notice's id back.
 */
import { useEffect, useState } from 'react';
import type { MovedAsideNotice } from '../../../shared/ipc/notices';
import { api, settle } from '../api';

export function MovedAsideNotices() {
  const [notices, setNotices] = useState<MovedAsideNotice[]>([]);
  const [unrevealed, setUnrevealed] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => {
    const stop = api.on.fileMovedAside((notice) =>
      setNotices((shown) => (shown.some((n) => n.id === notice.id) ? shown : [...shown, notice])),
    );
    void settle(() => api.notices.list()).then((result) => {
      if (result.ok)
        setNotices((shown) => [...result.value.filter((n) => !shown.some((s) => s.id === n.id)), ...shown]);
    });
    return stop;
  }, []);

  async function reveal(id: string) {
    const result = await settle(() => api.notices.reveal({ id }));
    if (!result.ok || !result.value.revealed) setUnrevealed((ids) => new Set(ids).add(id));
  }

  async function dismiss(id: string) {
    const result = await settle(() => api.notices.dismiss({ id }));
    if (result.ok) setNotices((shown) => shown.filter((n) => n.id !== id));
  }

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
            <button type="button" className="button" onClick={() => void reveal(notice.id)}>
              Show in folder
            </button>
            <button type="button" className="button" onClick={() => void dismiss(notice.id)}>
              Dismiss
            </button>
          </div>
        </div>
      ))}
    </div>
  );
}
