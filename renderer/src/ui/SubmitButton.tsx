import type { ReactNode } from 'react';
import { useOfflineReason } from './offline';

/**
 * The submit button of a form that asks the service. It is disabled while its request is out, so a second press sends
 * nothing, and while the service cannot be reached or the form cannot be sent (`blocked`), saying why on hover.
 */
export function SubmitButton({
  pending,
  pendingLabel,
  blocked = null,
  children,
}: {
  pending: boolean;
  /** What the button says while the request is out: "Saving…". */
  pendingLabel: string;
  /** Why the form cannot be sent as it stands, shown on hover; null when it can. */
  blocked?: string | null;
  children: ReactNode;
}) {
  const offline = useOfflineReason();
  return (
    <button
      type="submit"
      className="button button-primary"
      disabled={pending || offline !== null || blocked !== null}
      title={offline ?? blocked ?? undefined}
    >
      {pending ? pendingLabel : children}
    </button>
  );
}
