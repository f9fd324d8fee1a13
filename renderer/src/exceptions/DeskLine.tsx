import { deskLine, useDeskStatus } from './exceptions-queries';

/** "Working alone as …", "Desk host/db as … (role)" or "Desk not reachable: …", from `desk.status`. */
export function DeskLine() {
  const status = useDeskStatus();
  if (status.isPending) return null;
  if (status.isError) {
    return (
      <p className="exceptions-desk exceptions-desk-down" role="status">
        Desk status unknown: {status.error.message}
      </p>
    );
  }
  const down = status.data.mode === 'desk' && !status.data.reachable;
  return (
    <p className={`exceptions-desk${down ? ' exceptions-desk-down' : ''}`} role="status" aria-label="Desk">
      {deskLine(status.data)}
    </p>
  );
}

/** The status bar's word on the desk: shown only on a profile joined to a desk, so working alone adds nothing. */
export function DeskIndicator() {
  const status = useDeskStatus();
  if (status.data?.mode !== 'desk') return null;
  const text = deskLine(status.data);
  return (
    <span className={`desk-indicator${status.data.reachable ? '' : ' desk-indicator-down'}`} title={text}>
      {text}
    </span>
  );
}
